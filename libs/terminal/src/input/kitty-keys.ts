import { key, textKey, type InputEvent } from './events';
import { decodeModifiers } from './modifiers';

/**
 * Keys reported by code point: kitty's `CSI code[:shifted[:base]] ; mods[:event] [; text] u` and xterm's
 * modifyOtherKeys `CSI 27 ; mods ; code ~`. Both carry Shift+Enter (`ESC[13;2u`, `ESC[27;2;13~`), Ctrl+I apart
 * from Tab, and Ctrl+Shift+letter.
 */

const NAMED_CODES: Record<number, string> = {
  8: 'backspace',
  9: 'tab',
  13: 'enter',
  27: 'escape',
  32: 'space',
  127: 'backspace',
  57414: 'enter', // keypad Enter
};

/** Kitty's private-use codes for keypad digits and operators (57399–57413). */
const KEYPAD_TEXT = '0123456789.' + '/*-+';

const FIRST_KITTY_FUNCTIONAL = 57344;
const LAST_KITTY_FUNCTIONAL = 63743;
const FIRST_MODIFIER_ONLY = 57441; // Left Shift … ISO Level 5 Shift: reported alone with "all keys" flags
const LAST_MODIFIER_ONLY = 57454;

/** The event for a key reported by code point, or undefined when nothing should reach the UI (a release). */
export function codepointKey(
  code: number,
  modifierParameter: string | undefined,
  sequence: string,
  shiftedCode?: number,
  textCodes?: readonly number[],
): InputEvent | undefined {
  const mods = decodeModifiers(modifierParameter);
  if (mods.release) return undefined;
  if (code >= FIRST_MODIFIER_ONLY && code <= LAST_MODIFIER_ONLY) return undefined;
  if (mods.other) return { type: 'unknown', sequence };
  const modifiers = { ctrl: mods.ctrl, alt: mods.alt, shift: mods.shift };
  const named = NAMED_CODES[code];
  if (named !== undefined) {
    const typesText = named === 'space' && !mods.ctrl && !mods.alt;
    return key(named, sequence, modifiers, typesText ? ' ' : undefined);
  }
  if (code >= 57399 && code <= 57413) {
    return textKey(KEYPAD_TEXT[code - 57399] ?? '', sequence, modifiers);
  }
  if (code >= FIRST_KITTY_FUNCTIONAL && code <= LAST_KITTY_FUNCTIONAL) return { type: 'unknown', sequence };
  if (code < 0x20 || code > 0x10ffff || (code >= 0x7f && code < 0xa0)) return { type: 'unknown', sequence };
  const base = String.fromCodePoint(code);
  let typed = base;
  if (textCodes !== undefined && textCodes.length > 0) typed = String.fromCodePoint(...textCodes);
  else if (mods.shift && shiftedCode !== undefined) typed = String.fromCodePoint(shiftedCode);
  else if (mods.shift) typed = base.toUpperCase();
  const event = textKey(typed, sequence, modifiers);
  // A shifted symbol (Shift+/ → ?) keeps the name of the key that was pressed when no text is typed.
  return mods.ctrl || mods.alt ? { ...event, name: base.toLowerCase() } : event;
}

/** `CSI code[:shifted[:base]] ; mods[:event] [; text] u` (kitty keyboard protocol). */
export function kittyKey(parameters: string, sequence: string): InputEvent | undefined {
  const [codes = '', mods, text] = parameters.split(';');
  const [code, shifted] = codes.split(':').map((c) => (c === '' ? undefined : Number(c)));
  if (code === undefined || Number.isNaN(code)) return { type: 'unknown', sequence };
  const textCodes = text === undefined ? undefined : text.split(':').map(Number);
  if (textCodes?.some((c) => Number.isNaN(c) || c < 0x20 || c > 0x10ffff)) return { type: 'unknown', sequence };
  return codepointKey(code, mods, sequence, shifted, textCodes);
}
