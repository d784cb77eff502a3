/**
 * What the input decoder hands the UI: named keys, whole pastes, and the sequences it could not read. Nothing
 * undecodable ever arrives as typed text.
 */

export interface KeyEvent {
  readonly type: 'key';
  /** `enter`, `escape`, `up`, `f5`, `space`, a lower-case letter, or the typed grapheme itself (`?`, `🐢`, `中`). */
  readonly name: string;
  readonly ctrl: boolean;
  readonly alt: boolean;
  readonly shift: boolean;
  /** The raw input that produced the key. */
  readonly sequence: string;
  /** The text this key types, when it types any (a printable key without Ctrl or Alt): `A` for Shift+A. */
  readonly text?: string;
}

export interface PasteEvent {
  readonly type: 'paste';
  /** Everything between the bracketed-paste markers, line breaks normalized to `\n`. */
  readonly text: string;
}

export interface UnknownEvent {
  readonly type: 'unknown';
  readonly sequence: string;
}

export type MouseAction = 'press' | 'release' | 'drag' | 'move' | 'wheelUp' | 'wheelDown';

/** Only produced when the decoder was created with `mouse: true`; otherwise mouse reports are dropped. */
export interface MouseEvent {
  readonly type: 'mouse';
  readonly action: MouseAction;
  /** 0 left, 1 middle, 2 right; -1 when no button is involved (move, wheel). */
  readonly button: number;
  /** 0-based cell coordinates. */
  readonly x: number;
  readonly y: number;
  readonly ctrl: boolean;
  readonly alt: boolean;
  readonly shift: boolean;
  readonly sequence: string;
}

export type InputEvent = KeyEvent | PasteEvent | UnknownEvent | MouseEvent;

export interface Modifiers {
  readonly ctrl?: boolean;
  readonly alt?: boolean;
  readonly shift?: boolean;
}

/** A key event with every field filled in. */
export function key(name: string, sequence: string, modifiers: Modifiers = {}, text?: string): KeyEvent {
  const event: KeyEvent = {
    type: 'key',
    name,
    ctrl: modifiers.ctrl ?? false,
    alt: modifiers.alt ?? false,
    shift: modifiers.shift ?? false,
    sequence,
  };
  return text === undefined ? event : { ...event, text };
}

/** The key a printable grapheme types: letters by their lower-case name with `shift` for capitals. */
export function textKey(grapheme: string, sequence: string = grapheme, modifiers: Modifiers = {}): KeyEvent {
  const typed = !modifiers.ctrl && !modifiers.alt;
  if (grapheme === ' ') return key('space', sequence, modifiers, typed ? ' ' : undefined);
  const lower = grapheme.toLowerCase();
  const isCapital = lower !== grapheme && /^\p{Lu}$/u.test(grapheme);
  const hasCase = lower !== grapheme.toUpperCase();
  // Shift is part of the name for letters (shift+a); a typed symbol is just itself (`?`, not shift+/).
  const shift = isCapital || ((modifiers.shift ?? false) && (hasCase || !typed));
  return key(isCapital ? lower : grapheme, sequence, { ...modifiers, shift }, typed ? grapheme : undefined);
}
