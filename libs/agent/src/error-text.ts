/** The `code` of a Node system error (ENOENT, EEXIST, ...), if the thrown value has one. */
export function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}

/** A thrown value as a one-line message for an entry or a tool result; never throws itself. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return 'unprintable thrown value';
  }
}

/** Longest provider text kept in an entry, an event or a rejection (providers cut theirs at 300 already). */
const MAX_PROVIDER_TEXT_LENGTH = 300;

// Shapes a credential has in an error text, for providers that do not redact their own (a plugin's, a buggy
// one). The OpenAI-compatible provider redacts its exact key; this is the harness's net under every provider.
const credentialPatterns: ReadonlyArray<readonly [RegExp, string]> = [
  // An Authorization header value; the token must hold a digit, so prose like "bearer token" is left alone.
  [/\b(Bearer|Basic)\s+(?=[^\s"',;]*\d)[^\s"',;]{8,}/gi, '$1 [redacted]'],
  // `scheme://user:secret@host`
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]+@/gi, '$1[redacted]@'],
  // `?api_key=…`, `&token=…` and the like in a URL
  [/([?&](?:api[_-]?key|key|token|access_token|secret|password|auth)=)[^&#\s"']+/gi, '$1[redacted]'],
  // Well-known key formats: sk-… (OpenAI, Anthropic, OpenRouter, DeepSeek), AIza… (Google), gsk_ (Groq),
  // xai- (xAI), hf_ (Hugging Face).
  [
    /\b(?:sk-[A-Za-z0-9_-]{16,}|AIza[0-9A-Za-z_-]{30,}|gsk_[A-Za-z0-9]{20,}|xai-[A-Za-z0-9]{20,}|hf_[A-Za-z0-9]{20,})/g,
    '[redacted]',
  ],
];

/**
 * What the harness records of a provider's failure (in an entry, the settled outcome, a rejection): the
 * provider's own message, with anything shaped like a credential removed, and bounded.
 */
export function providerErrorText(error: unknown): string {
  let text = errorMessage(error);
  for (const [pattern, replacement] of credentialPatterns) text = text.replace(pattern, replacement);
  return text.length <= MAX_PROVIDER_TEXT_LENGTH ? text : `${text.slice(0, MAX_PROVIDER_TEXT_LENGTH)}…`;
}
