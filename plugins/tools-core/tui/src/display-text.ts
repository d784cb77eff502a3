/**
 * Text from a file, a command or the model, as one terminal line may show it: a tab becomes four spaces and
 * every other control character (escape sequences, carriage returns, NUL…) a space, so tool output can neither
 * restyle the screen nor break the layout.
 */
export function displayLine(text: string): string {
  // eslint-disable-next-line no-control-regex -- exactly the control characters are replaced
  return text.replaceAll('\t', '    ').replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
}

/** The lines of a tool's text output (`\n` or `\r\n`), shown safely; an empty text has no lines. */
export function displayLines(text: string): string[] {
  if (text === '') return [];
  return text.split(/\r?\n/).map(displayLine);
}
