import { SgrState } from './sgr-state';
import { styledGraphemes } from './styled-graphemes';
import { PRINTABLE_ASCII, visibleWidth } from './width';

/**
 * Cuts one line of styled text to `width` columns, ending it with `ellipsis` when something was cut. Never
 * splits a grapheme (a wide character that does not fit is left out whole); a style still open at the cut is
 * closed after the ellipsis.
 */
export function truncate(text: string, width: number, ellipsis = '…'): string {
  const columns = Math.max(0, Math.floor(width));
  if (visibleWidth(text) <= columns) return text;
  const tail = visibleWidth(ellipsis) <= columns ? ellipsis : '';
  const budget = columns - visibleWidth(tail);
  // Plain ASCII (a footer, a status line): one column per character, no style to close.
  if (PRINTABLE_ASCII.test(text)) return text.slice(0, budget) + tail;
  const state = new SgrState();
  let out = '';
  let used = 0;
  for (const piece of styledGraphemes(text)) {
    if (piece.kind === 'escape') {
      state.apply(piece.text);
      out += piece.text;
      continue;
    }
    if (used + piece.width > budget) break;
    out += piece.text;
    used += piece.width;
  }
  return out + tail + state.close();
}

/** Pads one line of styled text with spaces to `width` columns; a wider line is returned unchanged. */
export function padRight(text: string, width: number): string {
  const missing = Math.floor(width) - visibleWidth(text);
  return missing > 0 ? text + ' '.repeat(missing) : text;
}
