import { err, ok, type Result } from 'neverthrow';
import type { KeyEvent } from '../input/events';
import { splitGraphemes } from '../text/width';

/**
 * Key ids: `ctrl+alt+shift+name`, modifiers always in that order, names as the decoder reports them. Users may
 * write them loosely in JSON (`Ctrl+Shift+X`, `esc`, `return`, `X` for shift+x); `parseKeyId` normalizes.
 */

export const NAMED_KEYS = [
  'enter',
  'escape',
  'tab',
  'backspace',
  'space',
  'up',
  'down',
  'left',
  'right',
  'home',
  'end',
  'pageup',
  'pagedown',
  'insert',
  'delete',
  'clear',
  'f1',
  'f2',
  'f3',
  'f4',
  'f5',
  'f6',
  'f7',
  'f8',
  'f9',
  'f10',
  'f11',
  'f12',
] as const;

const NAMED = new Set<string>(NAMED_KEYS);

const ALIASES: Record<string, string> = {
  return: 'enter',
  esc: 'escape',
  del: 'delete',
  ins: 'insert',
  pgup: 'pageup',
  pgdn: 'pagedown',
  pgdown: 'pagedown',
  arrowup: 'up',
  arrowdown: 'down',
  arrowleft: 'left',
  arrowright: 'right',
};

const MODIFIER_ALIASES: Record<string, 'ctrl' | 'alt' | 'shift'> = {
  ctrl: 'ctrl',
  control: 'ctrl',
  alt: 'alt',
  meta: 'alt',
  option: 'alt',
  shift: 'shift',
};

function join(name: string, ctrl: boolean, alt: boolean, shift: boolean): string {
  return `${ctrl ? 'ctrl+' : ''}${alt ? 'alt+' : ''}${shift ? 'shift+' : ''}${name}`;
}

/** The id of a key event: `ctrl+shift+x`, `alt+enter`, `shift+tab`, `?`, `🐢`. */
export function keyId(event: KeyEvent): string {
  return join(event.name, event.ctrl, event.alt, event.shift);
}

/** Why a key name was refused, for the keymap error. */
export interface KeyIdProblem {
  readonly key: string;
  readonly reason: string;
}

/** Normalizes a key as a user may write it (`Ctrl+Shift+X`, `esc`, `A`) to its id, or says what is wrong. */
export function parseKeyId(text: string): Result<string, KeyIdProblem> {
  const problem = (reason: string): Result<string, KeyIdProblem> => err({ key: text, reason });
  const trimmed = text.trim();
  if (trimmed === '') return problem('empty key');
  // The last part is the key; a trailing "+" is the plus key itself ("ctrl++").
  const plusKey = trimmed.endsWith('++') || trimmed === '+';
  const parts = (plusKey ? trimmed.slice(0, -1) : trimmed).split('+');
  const rawName = plusKey ? '+' : (parts.pop() ?? '');
  if (plusKey) parts.pop();
  const mods = { ctrl: false, alt: false, shift: false };
  for (const part of parts) {
    const modifier = MODIFIER_ALIASES[part.trim().toLowerCase()];
    if (modifier === undefined) return problem(`unknown modifier "${part}"`);
    mods[modifier] = true;
  }
  const lowered = rawName.trim().toLowerCase();
  const named = ALIASES[lowered] ?? lowered;
  if (NAMED.has(named)) return ok(join(named, mods.ctrl, mods.alt, mods.shift));
  const graphemes = splitGraphemes(rawName);
  const single = graphemes[0];
  if (graphemes.length !== 1 || single === undefined || /^[\p{Cc}\s]$/u.test(single)) {
    return problem(`unknown key name "${rawName}"`);
  }
  const lower = single.toLowerCase();
  const capital = lower !== single && /^\p{Lu}$/u.test(single);
  const hasCase = lower !== single.toUpperCase();
  // As the decoder reports keys: a typed symbol is itself (`?`), Shift counts for letters and with Ctrl/Alt.
  // A capital alone means Shift (`A`); with modifiers its case is only spelling (`Ctrl+P` is ctrl+p).
  const shift = (capital && parts.length === 0) || (mods.shift && (hasCase || mods.ctrl || mods.alt));
  return ok(join(lower, mods.ctrl, mods.alt, shift));
}
