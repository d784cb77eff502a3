import { key, type InputEvent } from './events';
import { codepointKey, kittyKey } from './kitty-keys';
import { decodeModifiers } from './modifiers';
import { sgrMouse } from './mouse';

/**
 * Complete CSI sequences (`ESC [ params final`) as events. Returns undefined for sequences that are consumed
 * without an event (key releases, a stray paste end, mouse reports while the mouse is off).
 */

/** `CSI n ~` (VT220 style) and `CSI n ^` (rxvt, Ctrl). */
const TILDE_KEYS: Record<number, string> = {
  1: 'home',
  2: 'insert',
  3: 'delete',
  4: 'end',
  5: 'pageup',
  6: 'pagedown',
  7: 'home',
  8: 'end',
  11: 'f1',
  12: 'f2',
  13: 'f3',
  14: 'f4',
  15: 'f5',
  17: 'f6',
  18: 'f7',
  19: 'f8',
  20: 'f9',
  21: 'f10',
  23: 'f11',
  24: 'f12',
};

/** `CSI [1;mods] X` (xterm cursor keys, F1–F4). */
const LETTER_KEYS: Record<string, string> = {
  A: 'up',
  B: 'down',
  C: 'right',
  D: 'left',
  E: 'clear',
  F: 'end',
  H: 'home',
  P: 'f1',
  Q: 'f2',
  R: 'f3',
  S: 'f4',
};

/** rxvt's Shift+arrows: `CSI a` … `CSI d`. */
const RXVT_SHIFT_ARROWS: Record<string, string> = { a: 'up', b: 'down', c: 'right', d: 'left' };

function modifiedKey(name: string, modifierParameter: string | undefined, sequence: string): InputEvent | undefined {
  const mods = decodeModifiers(modifierParameter);
  if (mods.release) return undefined;
  if (mods.other) return { type: 'unknown', sequence };
  return key(name, sequence, mods);
}

export function csiEvent(parameters: string, final: string, sequence: string, mouse: boolean): InputEvent | undefined {
  const unknown: InputEvent = { type: 'unknown', sequence };
  if (parameters.startsWith('<') && (final === 'M' || final === 'm')) {
    return mouse ? (sgrMouse(parameters.slice(1), final, sequence) ?? unknown) : undefined;
  }
  if (!/^[0-9;:]*$/.test(parameters)) return unknown; // private replies (`?`, `>`, `=`) are not keys
  const params = parameters.split(';');
  const first = params[0] ?? '';
  switch (final) {
    case 'u': // kitty: CSI code[:shifted[:base]] ; mods[:event] [; text] u
      return kittyKey(parameters, sequence);
    case '~': {
      const code = Number(first.split(':')[0]);
      if (code === 27 && params.length >= 3) {
        // xterm modifyOtherKeys: CSI 27 ; mods ; code ~
        const keyCode = Number(params[2]);
        return Number.isNaN(keyCode) ? unknown : codepointKey(keyCode, params[1], sequence);
      }
      if (code === 201) return undefined; // a paste end without a start
      const name = TILDE_KEYS[code];
      return name === undefined ? unknown : modifiedKey(name, params[1], sequence);
    }
    case '^': {
      // rxvt: CSI n ^ is Ctrl+key
      const name = TILDE_KEYS[Number(first)];
      return name === undefined ? unknown : key(name, sequence, { ctrl: true });
    }
    case 'Z': // CSI Z, or CSI 1;mods Z: Shift+Tab
      return key('tab', sequence, { ...decodeModifiers(params[1]), shift: true });
    default: {
      const rxvt = parameters === '' ? RXVT_SHIFT_ARROWS[final] : undefined;
      if (rxvt !== undefined) return key(rxvt, sequence, { shift: true });
      const name = LETTER_KEYS[final];
      if (name === undefined || (first !== '' && first.split(':')[0] !== '1')) return unknown;
      return modifiedKey(name, params[1], sequence);
    }
  }
}
