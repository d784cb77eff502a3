import { SgrState } from './sgr-state';
import { styledGraphemes, type StyledPiece } from './styled-graphemes';
import { expandTabs } from './tabs';
import { PRINTABLE_ASCII } from './width';

/**
 * Word wrap for styled terminal text: breaks after spaces, hard-breaks words longer than a line, never splits a
 * grapheme, counts wide characters as two columns, turns tabs into spaces to the next tab stop. Escape sequences
 * take no width and stay where they were; a style open at a line break is closed at the end of that line and
 * re-opened at the start of the next, so every line can be drawn on its own.
 *
 * A grapheme wider than `width` (a 🐢 at width 1) gets a line of its own, which then overflows.
 */
export function wrapText(text: string, width: number): string[] {
  return wrapTextFrom(text, width, new SgrState());
}

/**
 * `wrapText` for text that follows text already wrapped: `state` holds the styles in force where that text ended
 * and is left holding those in force at the end of this one. `wrapText(a + b)` is `wrapTextFrom(a)` then
 * `wrapTextFrom(b)` with one state, when `a` ends with a newline and the last row `a` gives (its empty last line) is
 * dropped.
 */
export function wrapTextFrom(text: string, width: number, state: SgrState): string[] {
  const columns = Math.max(1, Math.floor(width));
  const rows: Array<StyledPiece[] | string> = [];
  for (const line of text.replace(/\r\n/g, '\n').split('\n')) rows.push(...wrapOneLine(expandTabs(line), columns));
  return restyle(rows, state);
}

/**
 * `wrapTextFrom` for one line without tabs, carriage returns or newlines, and where each of its rows starts in it
 * (pushed to `starts`, `NO_RESUME` where a wrap cannot resume; see there).
 */
export function wrapLineFrom(line: string, width: number, state: SgrState, starts: number[]): string[] {
  return restyle(wrapOneLine(line, Math.max(1, Math.floor(width)), starts), state);
}

function wrapOneLine(line: string, width: number, starts?: number[]): Array<StyledPiece[] | string> {
  // A streamed answer is re-wrapped every frame; most of its lines are plain ASCII: no piece per character.
  return PRINTABLE_ASCII.test(line)
    ? wrapPlainLine(line, width, starts)
    : wrapLine(styledGraphemes(line), width, starts);
}

/**
 * Where each row of a wrapped line starts in the line (its first piece), or `NO_RESUME` for a row that follows a soft
 * break at a space: the spaces after such a break are dropped, which a wrap started there would keep. Wrapping the
 * line from any other row's start gives that row and the ones after it (see `GrowingTextWrap`).
 */
export const NO_RESUME = -1;

/**
 * `wrapLine` for a line of printable ASCII (one column per character, no escapes), on indices into the line: a row
 * is the slice of the line from its start to where it ends, so no row is built a character at a time.
 */
function wrapPlainLine(line: string, width: number, starts?: number[]): string[] {
  const rows: string[] = [];
  let rowStart = 0;
  let breakAt = -1; // just after the row's last space, -1 when the row has no break opportunity
  let afterSoftBreak = false; // spaces at the start of a wrapped row are dropped
  starts?.push(0);
  const endRow = (end: number, next: number, start: number): void => {
    let last = end;
    while (last > rowStart && line.charCodeAt(last - 1) === 0x20) last -= 1;
    rows.push(line.slice(rowStart, last));
    rowStart = next;
    breakAt = -1;
    afterSoftBreak = true;
    starts?.push(start);
  };
  for (let index = 0; index < line.length; index++) {
    if (line.charCodeAt(index) === 0x20) {
      if (afterSoftBreak) rowStart = index + 1;
      else if (index - rowStart + 1 > width) endRow(index, index + 1, NO_RESUME);
      else breakAt = index + 1;
      continue;
    }
    afterSoftBreak = false;
    if (index - rowStart + 1 > width && breakAt !== -1) {
      // The word being written moves to the next row.
      endRow(breakAt, breakAt, breakAt);
      afterSoftBreak = false;
    }
    if (index - rowStart + 1 > width && index - rowStart > 0) {
      endRow(index, index, index);
      afterSoftBreak = false;
    }
  }
  rows.push(line.slice(rowStart));
  return rows;
}

const isSpace = (piece: StyledPiece): boolean => piece.kind === 'grapheme' && piece.text === ' ';
const widthOf = (pieces: readonly StyledPiece[]): number =>
  pieces.reduce((sum, p) => sum + (p.kind === 'grapheme' ? p.width : 0), 0);

/** Drops the spaces at the end of a row that ends at a soft break, keeping any escapes among them. */
function trimEnd(row: StyledPiece[]): StyledPiece[] {
  const out = [...row];
  for (let i = out.length - 1; i >= 0; i--) {
    const piece = out[i];
    if (piece === undefined || piece.kind === 'escape') continue;
    if (piece.text !== ' ') break;
    out.splice(i, 1);
  }
  return out;
}

function wrapLine(pieces: readonly StyledPiece[], width: number, starts?: number[]): StyledPiece[][] {
  const rows: StyledPiece[][] = [];
  let row: StyledPiece[] = [];
  let rowWidth = 0;
  let breakAt = 0; // index in `row` just after the last space, 0 when the row has no break opportunity
  let afterSoftBreak = false; // spaces at the start of a wrapped row are dropped
  let offset = 0; // where the piece at hand starts in the line
  starts?.push(0);
  const endRow = (next: StyledPiece[], start: number): void => {
    rows.push(trimEnd(row));
    row = next;
    rowWidth = widthOf(next);
    breakAt = 0;
    afterSoftBreak = true;
    starts?.push(start);
  };
  for (const piece of pieces) {
    const at = offset;
    offset += piece.text.length;
    if (piece.kind === 'escape') {
      row.push(piece);
      continue;
    }
    if (isSpace(piece)) {
      if (afterSoftBreak) continue;
      if (rowWidth + piece.width > width) {
        endRow([], NO_RESUME);
        continue;
      }
      row.push(piece);
      rowWidth += piece.width;
      breakAt = row.length;
      continue;
    }
    afterSoftBreak = false;
    if (rowWidth + piece.width > width && breakAt > 0) {
      const carry = row.slice(breakAt);
      row = row.slice(0, breakAt);
      endRow(carry, at - carry.reduce((length, carried) => length + carried.text.length, 0));
      afterSoftBreak = false;
    }
    if (rowWidth + piece.width > width && rowWidth > 0) {
      endRow([], at);
      afterSoftBreak = false;
    }
    row.push(piece);
    rowWidth += piece.width;
  }
  rows.push(row);
  return rows;
}

/** Joins each row, closing the styles open at its end and re-opening them on the next row. */
function restyle(rows: ReadonlyArray<StyledPiece[] | string>, state: SgrState): string[] {
  return rows.map((row) => {
    if (typeof row === 'string') return state.open() + row + state.close();
    let line = state.open();
    for (const piece of row) {
      if (piece.kind === 'escape') state.apply(piece.text);
      line += piece.text;
    }
    return line + state.close();
  });
}
