/** What a failed response said, read off it before the message is built. */
export interface FailedResponse {
  readonly status: number;
  readonly statusText: string;
  readonly contentType: string;
  readonly body: string;
  /** When the server said to try again (from Retry-After), if it did. */
  readonly retryAfterMs: number | null;
}

/**
 * Describes a response that is not a stream for a ProviderError: the status, when to retry if the server said,
 * and the server's own explanation (the `error.message` of a JSON body, or a plain-text body). The text is raw:
 * the provider's redaction step removes any echoed key and bounds the length.
 */
export function httpErrorMessage(providerName: string, response: FailedResponse): string {
  const detail = serverExplanation(response.body, response.contentType);
  const head = statusLine(providerName, response);
  return detail === '' ? head : `${head}: ${detail}`;
}

function statusLine(providerName: string, { status, statusText, retryAfterMs }: FailedResponse): string {
  // "When to retry" comes before the server's words, so cutting a long message never drops it.
  const retry = retryAfterMs === null ? '' : `; retry after ${Math.ceil(retryAfterMs / 1000)} s`;
  if (status === 429) return `${providerName} is rate limited (HTTP 429)${retry}`;
  if (status === 503) return `${providerName} is unavailable (HTTP 503)${retry}`;
  if (status === 529) return `${providerName} is overloaded (HTTP 529)${retry}`;
  return `${providerName} answered HTTP ${status}${statusText ? ` ${statusText}` : ''}${retry}`;
}

/** The server's explanation, or '' when it gave none a user could act on. */
export function serverExplanation(body: string, contentType: string): string {
  const fromJson = jsonErrorMessage(body);
  if (fromJson !== null) return fromJson;
  // An HTML error page says nothing a user can act on, and is long.
  if (contentType.includes('html') || body.trimStart().startsWith('<')) return '';
  return body.replace(/\s+/g, ' ').trim();
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

/**
 * How providers word "the request is longer than the model's window": Anthropic ("prompt is too long"), OpenAI and
 * compatible servers ("maximum context length", `context_length_exceeded`), Gemini ("input token count … exceeds").
 */
const OVERFLOW_PATTERNS = [
  /prompt is too long/i,
  /context[_ ]length[_ ]exceeded/i,
  /maximum context length/i,
  /exceeds the (?:model's )?(?:maximum )?context (?:window|length)/i,
  /input token count.*exceeds/i,
  /too many (?:input )?tokens/i,
];

/** Whether a refused request was refused for being too long for the model (400 or 413 with such words). */
export function isContextOverflow(response: Pick<FailedResponse, 'status' | 'body' | 'contentType'>): boolean {
  if (response.status !== 400 && response.status !== 413) return false;
  const text = `${serverExplanation(response.body, response.contentType)} ${response.body.slice(0, 2_000)}`;
  return OVERFLOW_PATTERNS.some((pattern) => pattern.test(text));
}
