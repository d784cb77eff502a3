/** How much of a caller's value an error message quotes by default. */
export const ERROR_QUOTE_MAX = 80;

/**
 * The longest message a RemoteError carries. Error frames repeat the message (tRPC's own field and our
 * envelope), so whatever a service interpolates, an error frame stays a few KiB.
 */
export const MAX_ERROR_MESSAGE_LENGTH = 1024;

/**
 * `text` cut to at most `max` characters (plus a short note), ending in an ellipsis and the full length when cut.
 * Never splits a surrogate pair.
 */
export function clipForError(text: string, max: number = ERROR_QUOTE_MAX): string {
  if (text.length <= max) return text;
  return `${text.slice(0, clippedEnd(text, max))}… (${text.length} characters)`;
}

/**
 * A caller-supplied value as an error message may echo it: a string JSON-quoted (control characters escaped)
 * and cut to `max` characters, so an error is never larger than its input is long. Values other than strings
 * are named by their kind only, since printing them would cost as much as they are big.
 */
export function quoteForError(value: unknown, max: number = ERROR_QUOTE_MAX): string {
  if (typeof value === 'string') {
    const quoted = JSON.stringify(value.length <= max ? value : value.slice(0, clippedEnd(value, max)));
    return value.length <= max ? quoted : `${quoted.slice(0, -1)}…" (${value.length} characters)`;
  }
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined)
    return String(value);
  return Array.isArray(value) ? 'an array' : `a value of type ${typeof value}`;
}

/** Where to cut `text` to keep at most `max` characters without splitting a surrogate pair. */
function clippedEnd(text: string, max: number): number {
  const end = Math.max(0, max);
  const last = text.charCodeAt(end - 1);
  return last >= 0xd800 && last <= 0xdbff ? end - 1 : end;
}
