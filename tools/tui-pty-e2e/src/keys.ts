/** The bytes a terminal sends for the keys the tests press. */
const FIXED = {
  enter: '\r',
  escape: '\x1b',
  backspace: '\x7f',
  'ctrl+c': '\x03',
  'ctrl+d': '\x04',
  'ctrl+g': '\x07',
  'ctrl+j': '\n',
  'ctrl+l': '\x0c',
  'ctrl+t': '\x14',
  'ctrl+o': '\x0f',
  pageUp: '\x1b[5~',
  pageDown: '\x1b[6~',
} as const;

const ARROWS = { up: 'A', down: 'B', right: 'C', left: 'D' } as const;

export type KeyName = keyof typeof FIXED | keyof typeof ARROWS;

/** A key's bytes; arrows depend on the cursor-key mode the program set (DECCKM), as in a real terminal. */
export function keyBytes(key: KeyName, applicationCursorKeys: boolean): string {
  if (key in ARROWS) return `\x1b${applicationCursorKeys ? 'O' : '['}${ARROWS[key as keyof typeof ARROWS]}`;
  return FIXED[key as keyof typeof FIXED];
}
