import stringWidth from 'string-width';
import { stripAnsi } from './ansi-tokens';

/**
 * Column widths of terminal text. string-width does the Unicode work (emoji presentation, East Asian width,
 * zero-width marks); this file adds a fast path for plain ASCII, a cache of grapheme widths, grapheme splitting,
 * and which graphemes terminals disagree on.
 */

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/** Graphemes whose width was looked up; a frame meets the same few over and over. Emptied when full. */
const widths = new Map<string, number>();
const WIDTH_CACHE_SIZE = 4096;

/** The user-perceived characters of a string (emoji with modifiers, flags, combining marks stay whole). */
export function splitGraphemes(text: string): string[] {
  if (PRINTABLE_ASCII.test(text)) return [...text];
  const out: string[] = [];
  for (const { segment } of segmenter.segment(text)) out.push(segment);
  return out;
}

/** Columns one grapheme takes: 0, 1 or 2. Control characters (a tab too: see `expandTabs`) take 0. */
export function graphemeWidth(grapheme: string): number {
  if (grapheme.length === 1) {
    const code = grapheme.charCodeAt(0);
    if (code >= 0x20 && code < 0x7f) return 1;
  }
  const known = widths.get(grapheme);
  if (known !== undefined) return known;
  const width = stringWidth(grapheme, { countAnsiEscapeCodes: true });
  if (widths.size >= WIDTH_CACHE_SIZE) widths.clear();
  widths.set(grapheme, width);
  return width;
}

/** Columns the text takes on one terminal line; escape sequences take none. */
export function visibleWidth(text: string): number {
  const plain = stripAnsi(text);
  if (PRINTABLE_ASCII.test(plain)) return plain.length;
  return stringWidth(plain, { countAnsiEscapeCodes: true });
}

/**
 * Code points whose graphemes terminals draw at widths of their own: emoji (a skin tone, a ZWJ sequence, a keycap,
 * a tag sequence, VS15/VS16 presentation, and any pictograph a terminal's tables may predate), flags (regional
 * indicators) and conjoining Hangul jamo. tmux 3.3, for one, draws 👍🏽 in four columns and ❤️ in one.
 */
const UNCERTAIN =
  /[\p{Extended_Pictographic}\p{Regional_Indicator}\p{Emoji_Modifier}\u{e0020}-\u{e007f}\u1100-\u11ff\ua960-\ua97f\ud7b0-\ud7ff]|\u200d|\u20e3|\ufe0e|\ufe0f/u;

/**
 * Whether terminals may give this grapheme another width than `graphemeWidth` says, so a renderer must not count
 * on where the terminal's cursor is after it. Plain text, CJK and combining marks are certain.
 */
export function isWidthUncertain(grapheme: string): boolean {
  if (grapheme.length === 1 && grapheme.charCodeAt(0) < 0xa9) return false;
  return UNCERTAIN.test(grapheme);
}
