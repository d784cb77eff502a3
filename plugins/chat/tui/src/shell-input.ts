/** What a submitted text asks for when it starts with `!`: a shell command (`!!`: kept from the model), or none. */
export type ShellInput =
  | { readonly kind: 'command'; readonly command: string; readonly includeInContext: boolean }
  /** `!` or `!!` with nothing after it. */
  | { readonly kind: 'empty'; readonly includeInContext: boolean };

/**
 * `!command` runs a command whose output the model reads with the next prompt, `!!command` one whose output it never
 * reads. Only a `!` at the very start counts: a prompt that merely contains one (`what does !x do?`, `hi!`) is a
 * prompt. Null for a prompt.
 */
export function parseShellInput(text: string): ShellInput | null {
  if (!text.startsWith('!')) return null;
  const includeInContext = !text.startsWith('!!');
  const command = text.slice(includeInContext ? 1 : 2).trim();
  return command === '' ? { kind: 'empty', includeInContext } : { kind: 'command', command, includeInContext };
}
