import { tokenizeAnsi } from './ansi-tokens';
import { graphemeWidth, splitGraphemes } from './width';

/** One piece of styled text: an escape sequence (width 0) or one grapheme with its width. */
export type StyledPiece =
  | { readonly kind: 'escape'; readonly text: string }
  | { readonly kind: 'grapheme'; readonly text: string; readonly width: number };

/** The escape sequences and graphemes of a styled string, in order. */
export function styledGraphemes(text: string): StyledPiece[] {
  const pieces: StyledPiece[] = [];
  for (const token of tokenizeAnsi(text)) {
    if (token.kind === 'escape') pieces.push(token);
    else
      for (const g of splitGraphemes(token.text)) pieces.push({ kind: 'grapheme', text: g, width: graphemeWidth(g) });
  }
  return pieces;
}
