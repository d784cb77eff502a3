import { key, type KeyEvent } from './events';

/**
 * Keys sent as one control byte (C0 or DEL). Ctrl+J (LF) is its own key, distinct from Enter (CR = Ctrl+M);
 * Backspace arrives as DEL or BS depending on the terminal, so both are `backspace`.
 */
const NAMED: Record<number, string> = {
  0x08: 'backspace',
  0x09: 'tab',
  0x0d: 'enter',
  0x1b: 'escape',
  0x7f: 'backspace',
};

const CTRL_PUNCTUATION: Record<number, string> = {
  0x00: 'space',
  0x1c: '\\',
  0x1d: ']',
  0x1e: '^',
  0x1f: '-',
};

/** True for the bytes this file decodes: C0 controls and DEL. */
export function isControlCharacter(char: string): boolean {
  const code = char.charCodeAt(0);
  return code < 0x20 || code === 0x7f;
}

/** The key for one control byte; `alt` when it followed an ESC. */
export function controlKey(char: string, sequence: string, alt = false): KeyEvent {
  const code = char.charCodeAt(0);
  const named = NAMED[code];
  if (named !== undefined) return key(named, sequence, { alt });
  const punctuation = CTRL_PUNCTUATION[code];
  if (punctuation !== undefined) return key(punctuation, sequence, { ctrl: true, alt });
  return key(String.fromCharCode(code + 0x60), sequence, { ctrl: true, alt }); // 0x01 → a … 0x1a → z
}
