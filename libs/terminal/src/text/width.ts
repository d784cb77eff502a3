import { escapeLength } from './ansi-tokens';
import { graphemeSegmenter, textColumns } from './text-columns';

/**
 * Column widths of terminal text. `textColumns` does the Unicode work (string-width's rules: emoji presentation, East
 * Asian width, zero-width marks); this file adds a fast path for plain ASCII, a cache of grapheme widths, grapheme
 * splitting, and which graphemes terminals disagree on. Nothing here builds a segmenter or a Unicode-set regular
 * expression before text past ASCII is measured: pi-tui's first paint (ASCII) pays for none.
 */
/** A line of printable ASCII only: one column per character, the fast path of width, wrap and truncate. */
export const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/** Graphemes whose width was looked up; a frame meets the same few over and over. Emptied when full. */
const widths = new Map<string, number>();
const WIDTH_CACHE_SIZE = 4096;

/** The user-perceived characters of a string (emoji with modifiers, flags, combining marks stay whole). */
export function splitGraphemes(text: string): string[] {
  if (PRINTABLE_ASCII.test(text)) return [...text];
  const out: string[] = [];
  for (const { segment } of graphemeSegmenter().segment(text)) out.push(segment);
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
  const width = textColumns(grapheme);
  if (widths.size >= WIDTH_CACHE_SIZE) widths.clear();
  widths.set(grapheme, width);
  return width;
}

/**
 * Per UTF-16 code unit: 0 before it was looked up; `JOINS` when it may form one grapheme with a neighbour; else
 * its width + 1, plus `UNCERTAIN_BIT` when terminals disagree on that width (see `isWidthUncertain`).
 */
const alone = new Uint8Array(0x10000);
const JOINS = 255;
const UNCERTAIN_BIT = 8;
/**
 * A base character forms a grapheme with neither neighbour (UAX #29) unless it is a spacing mark, a conjoining
 * Hangul jamo or the one prepended base letter of the BMP (U+0D4E): two such characters side by side always have a
 * boundary between them, so their widths simply add up.
 */
const BASE = /^\p{Grapheme_Base}$/u;
const MAY_JOIN_BASE = /^[\p{Mc}\u0d4e\u1100-\u11ff\ua960-\ua97f\ud7b0-\ud7ff]$/u;

function lookUp(codeUnit: number): number {
  const known = alone[codeUnit] ?? JOINS;
  if (known !== 0) return known;
  const char = String.fromCharCode(codeUnit);
  const entry =
    !BASE.test(char) || MAY_JOIN_BASE.test(char)
      ? JOINS
      : graphemeWidth(char) + 1 + (isWidthUncertain(char) ? UNCERTAIN_BIT : 0);
  alone[codeUnit] = entry;
  return entry;
}

/** The width of a code unit that is a grapheme on its own, or -1 when it may join a neighbour (marks, VS16, ZWJ, surrogates). */
export function standaloneWidth(codeUnit: number): number {
  const entry = lookUp(codeUnit);
  return entry === JOINS ? -1 : (entry & ~UNCERTAIN_BIT) - 1;
}

/** As `standaloneWidth`, but -1 also for a character terminals may draw at another width (✅, ⌚). */
export function certainStandaloneWidth(codeUnit: number): number {
  const entry = lookUp(codeUnit);
  return entry === JOINS || (entry & UNCERTAIN_BIT) !== 0 ? -1 : entry - 1;
}

const isPrintableAscii = (code: number) => code >= 0x20 && code < 0x7f;

/**
 * Columns the text takes on one terminal line; escape sequences take none. Walks the code units without copying:
 * printable ASCII and characters that stand alone are counted from a table, and only from a character that may
 * join another (an emoji sequence, a combining mark) to the next escape is the text split into graphemes.
 */
export function visibleWidth(text: string): number {
  let width = 0;
  /** The last character counted alone, right before `index` (-1 when an escape or a stretch came between). */
  let previous = -1;
  let previousWidth = 0;
  let index = 0;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    const single = isPrintableAscii(code) ? 1 : code === 0x1b ? -2 : standaloneWidth(code);
    if (single >= 0) {
      width += single;
      previous = index;
      previousWidth = single;
      index += 1;
    } else if (single === -2) {
      index += escapeLength(text, index);
      previous = -1;
    } else {
      // It may join the character before it (1 + VS16 + keycap is one emoji): measure from there.
      const start = previous !== -1 && previous === index - 1 ? previous : index;
      if (start !== index) width -= previousWidth;
      // To the next escape: a prepended letter joins even the ASCII after it.
      const escape = text.indexOf('\x1b', index);
      const end = escape === -1 ? text.length : escape;
      for (const { segment } of graphemeSegmenter().segment(text.slice(start, end))) width += graphemeWidth(segment);
      previous = -1;
      index = end;
    }
  }
  return width;
}

/**
 * How much of `text` fits in `columns`: the index of its first grapheme that does not fit (the text's length when
 * all do), so that the text before it, escape sequences included, takes at most `columns`. Walks the text as
 * `visibleWidth` does, without a piece per grapheme: a footer or status line cut every frame allocates nothing.
 */
export function fittingLength(text: string, columns: number): number {
  let width = 0;
  let previous = -1;
  let previousWidth = 0;
  let index = 0;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    const single = isPrintableAscii(code) ? 1 : code === 0x1b ? -2 : standaloneWidth(code);
    if (single >= 0) {
      if (width + single > columns) return index;
      width += single;
      previous = index;
      previousWidth = single;
      index += 1;
    } else if (single === -2) {
      index += escapeLength(text, index);
      previous = -1;
    } else {
      // As in `visibleWidth`: the character before may be part of this grapheme, which then fits or not whole.
      const start = previous !== -1 && previous === index - 1 ? previous : index;
      if (start !== index) width -= previousWidth;
      const escape = text.indexOf('\x1b', index);
      const end = escape === -1 ? text.length : escape;
      for (const { segment, index: at } of graphemeSegmenter().segment(text.slice(start, end))) {
        const cells = graphemeWidth(segment);
        if (width + cells > columns) return start + at;
        width += cells;
      }
      previous = -1;
      index = end;
    }
  }
  return text.length;
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
