import { styledGraphemes } from './styled-graphemes';

/** Columns between tab stops: as the editor shows a tab, and narrow enough for nested code in 80 columns. */
export const TAB_STOP = 4;

/**
 * Replaces each tab with spaces up to the next tab stop, counting columns from the start of its line (wide
 * characters count two, escape sequences none). A terminal would move the cursor instead; a renderer that lays
 * out and diffs cells needs the spaces, and string widths count a tab as nothing.
 */
export function expandTabs(text: string, tabStop = TAB_STOP): string {
  if (!text.includes('\t')) return text;
  let out = '';
  let column = 0;
  for (const piece of styledGraphemes(text)) {
    if (piece.kind === 'escape') out += piece.text;
    else if (piece.text === '\t') {
      const spaces = tabStop - (column % tabStop);
      out += ' '.repeat(spaces);
      column += spaces;
    } else if (piece.text === '\n' || piece.text === '\r\n') {
      out += piece.text;
      column = 0;
    } else {
      out += piece.text;
      column += piece.width;
    }
  }
  return out;
}
