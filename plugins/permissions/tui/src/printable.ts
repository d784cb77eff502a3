/**
 * Text the model wrote, as the terminal may show it on one line: control characters (escape sequences, line
 * breaks, tabs) become spaces, so a question can neither restyle the screen nor break a dialog's layout.
 */
export function printable(text: string): string {
  // eslint-disable-next-line no-control-regex -- exactly the control characters are replaced
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
}
