import { escapeLength } from './ansi-tokens';
import { SgrState } from './sgr-state';
import { PRINTABLE_ASCII, fittingLength, visibleWidth } from './width';

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
  const kept = text.slice(0, fittingLength(text, budget));
  return kept + tail + closingStyle(kept);
}

/** What closes the style still open at the end of `text`: a reset when an SGR sequence left one open, else ''. */
function closingStyle(text: string): string {
  let escape = text.indexOf('\x1b');
  if (escape === -1) return '';
  const state = new SgrState();
  while (escape !== -1) {
    const length = escapeLength(text, escape);
    state.apply(text.slice(escape, escape + length));
    escape = text.indexOf('\x1b', escape + length);
  }
  return state.close();
}

/** Pads one line of styled text with spaces to `width` columns; a wider line is returned unchanged. */
export function padRight(text: string, width: number): string {
  const missing = Math.floor(width) - visibleWidth(text);
  return missing > 0 ? text + ' '.repeat(missing) : text;
}
