import { controlKey, isControlCharacter } from './control-keys';
import { csiEvent } from './csi-keys';
import { key, textKey, type InputEvent, type KeyEvent } from './events';
import { mouseEvent } from './mouse';

/**
 * Reads the escape sequence at `start` (which holds ESC). `final` says no more input is coming (the Esc
 * timeout fired), so a prefix must be decided now: a lone ESC is Escape, `ESC [` is Alt+[, a cut-off sequence
 * is unknown.
 */
export type ParsedEscape =
  | { readonly kind: 'event'; readonly event: InputEvent | undefined; readonly length: number }
  | { readonly kind: 'pasteStart'; readonly length: number }
  | { readonly kind: 'incomplete' };

const ESC = '\x1b';
const PASTE_START = '\x1b[200~';
/** A CSI sequence longer than this without a final byte is garbage, not a slow terminal. */
const MAX_SEQUENCE = 64;

const INCOMPLETE: ParsedEscape = { kind: 'incomplete' };
const event = (e: InputEvent | undefined, length: number): ParsedEscape => ({ kind: 'event', event: e, length });
const unknown = (input: string, start: number, length: number): ParsedEscape =>
  event({ type: 'unknown', sequence: input.slice(start, start + length) }, length);

function withAlt(e: KeyEvent, sequence: string): KeyEvent {
  const { text: _text, ...rest } = e;
  return { ...rest, alt: true, sequence };
}

export function parseEscape(input: string, start: number, final: boolean, mouse: boolean): ParsedEscape {
  const next = input[start + 1];
  if (next === undefined) return final ? event(key('escape', ESC), 1) : INCOMPLETE;
  if (next === '[') return parseCsi(input, start, final, mouse);
  if (next === 'O') return parseSs3(input, start, final);
  if (next === ESC) return parseDoubleEscape(input, start, final, mouse);
  if (STRING_INTRODUCERS.includes(next)) return parseControlString(input, start, final);
  if (isControlCharacter(next)) return event(controlKey(next, ESC + next, true), 2); // ESC CR = Alt+Enter
  // ESC + a printable character: Alt+character (one code point; a split surrogate pair waits)
  const code = input.codePointAt(start + 1) ?? 0;
  const char = String.fromCodePoint(code);
  if (code >= 0xd800 && code <= 0xdbff && !final) return INCOMPLETE;
  return event(textKey(char, ESC + char, { alt: true }), 1 + char.length);
}

/**
 * OSC, DCS, APC and PM (`ESC ]`, `ESC P`, `ESC _`, `ESC ^`) up to BEL or ST: replies to terminal queries, never
 * keys. Alone after the timeout, the introducer is Alt+key (`ESC P` is Alt+Shift+P).
 */
const STRING_INTRODUCERS = [']', 'P', '_', '^'];
const MAX_CONTROL_STRING = 4096;

function parseControlString(input: string, start: number, final: boolean): ParsedEscape {
  for (let i = start + 2; i < input.length && i - start <= MAX_CONTROL_STRING; i++) {
    if (input[i] === '\x07') return unknown(input, start, i + 1 - start);
    if (input[i] === ESC && input[i + 1] === '\\') return unknown(input, start, i + 2 - start);
    if (input[i] === ESC && input[i + 1] === undefined && !final) return INCOMPLETE;
    if (input[i] === ESC && input[i + 1] !== undefined) return unknown(input, start, i - start); // cut short
  }
  if (input.length - start > MAX_CONTROL_STRING) return unknown(input, start, MAX_CONTROL_STRING);
  if (!final) return INCOMPLETE;
  const introducer = input.charAt(start + 1);
  if (input.length === start + 2) return event(textKey(introducer, ESC + introducer, { alt: true }), 2);
  return unknown(input, start, input.length - start);
}

/** ESC ESC [ … and ESC ESC O …: some terminals send Alt+arrow this way. Otherwise the first ESC is Escape. */
function parseDoubleEscape(input: string, start: number, final: boolean, mouse: boolean): ParsedEscape {
  const third = input[start + 2];
  if (third === undefined) return final ? event(key('escape', ESC), 1) : INCOMPLETE;
  if (third !== '[' && third !== 'O') return event(key('escape', ESC), 1);
  const inner = parseEscape(input, start + 1, final, mouse);
  if (inner.kind === 'incomplete') return INCOMPLETE;
  if (inner.kind === 'event' && inner.event?.type === 'key') {
    const sequence = input.slice(start, start + 1 + inner.length);
    return event(withAlt(inner.event, sequence), 1 + inner.length);
  }
  return event(key('escape', ESC), 1);
}

function parseCsi(input: string, start: number, final: boolean, mouse: boolean): ParsedEscape {
  const first = start + 2;
  if (input[first] === undefined) return final ? event(textKey('[', '\x1b[', { alt: true }), 2) : INCOMPLETE;
  if (input[first] === '[') {
    // Linux console F1–F5: ESC [ [ A … ESC [ [ E
    const letter = input[first + 1];
    if (letter === undefined) return final ? unknown(input, start, 3) : INCOMPLETE;
    const index = 'ABCDE'.indexOf(letter);
    return index === -1 ? unknown(input, start, 4) : event(key(`f${index + 1}`, input.slice(start, start + 4)), 4);
  }
  if (input[first] === 'M') return parseX10Mouse(input, start, final, mouse);
  if (input.startsWith(PASTE_START, start)) return { kind: 'pasteStart', length: PASTE_START.length };
  if (!final && PASTE_START.startsWith(input.slice(start))) return INCOMPLETE;
  for (let i = first; i < input.length; i++) {
    const code = input.charCodeAt(i);
    if (code >= 0x40 && code <= 0x7e) {
      const sequence = input.slice(start, i + 1);
      return event(csiEvent(input.slice(first, i), input.charAt(i), sequence, mouse), i + 1 - start);
    }
    if (code < 0x20 || code > 0x7e) {
      // cut short by a stray byte: ESC [ then a control key is Alt+[ followed by that key
      return i === first ? event(textKey('[', '\x1b[', { alt: true }), 2) : unknown(input, start, i - start);
    }
    if (i - start >= MAX_SEQUENCE) return unknown(input, start, i + 1 - start);
  }
  return final ? unknown(input, start, input.length - start) : INCOMPLETE;
}

/** `ESC [ M b x y`: the X10 mouse report, three raw bytes offset by 32. */
function parseX10Mouse(input: string, start: number, final: boolean, mouse: boolean): ParsedEscape {
  if (input.length < start + 6) return final ? unknown(input, start, input.length - start) : INCOMPLETE;
  const sequence = input.slice(start, start + 6);
  if (!mouse) return event(undefined, 6);
  const [b, x, y] = [3, 4, 5].map((offset) => input.charCodeAt(start + offset) - 32) as [number, number, number];
  return event(mouseEvent(b, x, y, false, sequence), 6);
}

/** SS3: `ESC O X`, with optional modifier digits (`ESC O 5 A`). */
const SS3_KEYS: Record<string, string> = {
  A: 'up',
  B: 'down',
  C: 'right',
  D: 'left',
  E: 'clear',
  F: 'end',
  H: 'home',
  M: 'enter',
  P: 'f1',
  Q: 'f2',
  R: 'f3',
  S: 'f4',
};
/** Application keypad: `ESC O j` … `ESC O y`, and rxvt's Ctrl+arrows `ESC O a` … `ESC O d`. */
const SS3_KEYPAD: Record<string, string> = Object.fromEntries(
  [...'*+,-./0123456789'].map((c, i) => ['jklmnopqrstuvwxy'[i], c]),
);
const SS3_CTRL_ARROWS: Record<string, string> = { a: 'up', b: 'down', c: 'right', d: 'left' };

function parseSs3(input: string, start: number, final: boolean): ParsedEscape {
  let i = start + 2;
  while (i < input.length && /[0-9;]/.test(input.charAt(i))) i++;
  const letter = input[i];
  if (letter === undefined) {
    if (!final) return INCOMPLETE;
    return i === start + 2 ? event(textKey('O', '\x1bO', { alt: true }), 2) : unknown(input, start, i - start);
  }
  if (isControlCharacter(letter) || letter.charCodeAt(0) > 0x7e) {
    return i === start + 2 ? event(textKey('O', '\x1bO', { alt: true }), 2) : unknown(input, start, i - start);
  }
  const sequence = input.slice(start, i + 1);
  const modifier = Number(
    input
      .slice(start + 2, i)
      .split(';')
      .pop() || '1',
  );
  const bits = Math.max(0, modifier - 1);
  const mods = { shift: (bits & 1) !== 0, alt: (bits & 2) !== 0, ctrl: (bits & 4) !== 0 };
  const named = SS3_KEYS[letter];
  if (named !== undefined) return event(key(named, sequence, mods), sequence.length);
  const keypad = SS3_KEYPAD[letter];
  if (keypad !== undefined) return event(textKey(keypad, sequence), sequence.length);
  const ctrlArrow = SS3_CTRL_ARROWS[letter];
  if (ctrlArrow !== undefined) return event(key(ctrlArrow, sequence, { ctrl: true }), sequence.length);
  return unknown(input, start, sequence.length);
}
