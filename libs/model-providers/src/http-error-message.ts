const maxDetailLength = 300;

/**
 * Describes a non-2xx response for a ProviderError: the status, and the server's own explanation (the
 * `error.message` of a JSON body, or a short plain-text body). Servers sometimes echo the credential back
 * ("Incorrect API key provided: sk-…"), so every occurrence of the key is redacted.
 */
export async function httpErrorMessage(
  providerName: string,
  response: Response,
  apiKey: string | undefined,
): Promise<string> {
  const status = `${providerName} answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  const detail = serverExplanation(await response.text().catch(() => ''), response.headers.get('content-type') ?? '');
  const message = detail === '' ? status : `${status}: ${detail}`;
  return apiKey ? message.split(apiKey).join('[redacted]') : message;
}

function serverExplanation(body: string, contentType: string): string {
  const fromJson = jsonErrorMessage(body);
  if (fromJson !== null) return truncate(fromJson);
  // An HTML error page says nothing a user can act on, and is long.
  if (contentType.includes('html') || body.trimStart().startsWith('<')) return '';
  return truncate(body.replace(/\s+/g, ' ').trim());
}

/** `{ "error": { "message": … } }` (OpenAI), `{ "error": "…" }` or `{ "message": "…" }` (other compatible servers). */
function jsonErrorMessage(body: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { error, message } = parsed as { error?: unknown; message?: unknown };
  if (typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string') {
    return (error as { message: string }).message;
  }
  if (typeof error === 'string') return error;
  if (typeof message === 'string') return message;
  return null;
}

function truncate(text: string): string {
  return text.length <= maxDetailLength ? text : `${text.slice(0, maxDetailLength)}…`;
}
