import stringWidth from 'string-width';
import { stripAnsi } from './ansi-tokens';

/**
 * Column widths of terminal text. string-width does the Unicode work (emoji presentation, East Asian width,
 * zero-width marks); this file only adds a fast path for plain ASCII and grapheme splitting.
 */

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** The user-perceived characters of a string (emoji with modifiers, flags, combining marks stay whole). */
export function splitGraphemes(text: string): string[] {
  if (PRINTABLE_ASCII.test(text)) return [...text];
  const out: string[] = [];
  for (const { segment } of segmenter.segment(text)) out.push(segment);
  return out;
}

/** Columns one grapheme takes: 0, 1 or 2. Control characters take 0. */
export function graphemeWidth(grapheme: string): number {
  if (grapheme.length === 1) {
    const code = grapheme.charCodeAt(0);
    if (code >= 0x20 && code < 0x7f) return 1;
  }
  return stringWidth(grapheme, { countAnsiEscapeCodes: true });
}

/** Columns the text takes on one terminal line; escape sequences take none. */
export function visibleWidth(text: string): number {
  const plain = stripAnsi(text);
  if (PRINTABLE_ASCII.test(plain)) return plain.length;
  return stringWidth(plain, { countAnsiEscapeCodes: true });
}
