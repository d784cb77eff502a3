/** OSC 52: set the clipboard (`c`) to the base64 of the text; BEL ends it (tmux and most terminals take either end). */
export function clipboardSequence(text: string): string {
  return `\x1b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\x07`;
}
