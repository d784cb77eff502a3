/**
 * A result's text is its body (file lines, command output, a listing) followed, when there is something to say
 * about it, by a blank line and one bracketed notice (`[Showing lines 1-2000 of 5120. Use offset=2001 to
 * continue.]`). The notice is also in the details, so a renderer can show the body alone.
 */
export function withNotice(body: string, notice: string | null): string {
  if (notice === null) return body;
  return body === '' ? notice : `${body}\n\n${notice}`;
}

/** The body of a text built by `withNotice` with this notice; the text itself when it does not end with it. */
export function bodyWithoutNotice(text: string, notice: string | null): string {
  if (notice === null) return text;
  if (text === notice) return '';
  const suffix = `\n\n${notice}`;
  return text.endsWith(suffix) ? text.slice(0, -suffix.length) : text;
}
