import { PassThrough } from 'node:stream';
import blessed from 'blessed';
import {
  AUTOWRAP_OFF,
  AUTOWRAP_ON,
  SYNC_BEGIN,
  SYNC_END,
  TAB_STOP,
  certainStandaloneWidth,
  escapeLength,
  graphemeWidth,
  isWidthUncertain,
} from '@pi/terminal';
import { findRegionScroll, type RegionScroll } from './region-scroll';

/** The streams a screen runs on: a real terminal in `apps/tui`, in-memory streams in tests. */
export interface TerminalIO {
  readonly input: NodeJS.ReadableStream;
  readonly output: NodeJS.WritableStream & { columns?: number; rows?: number; isTTY?: boolean };
}

export interface CursorPosition {
  readonly row: number;
  readonly col: number;
}

/**
 * The terminal as the host draws on it: whole frames of styled lines, diffed against what is on screen.
 * blessed keeps the cell buffer, the diff and terminfo; we lay out every line ourselves (widths from
 * string-width, not blessed's 2015 tables) and read keys ourselves (blessed never sees the input).
 *
 * Terminals disagree on the width of some graphemes (tmux 3.3 draws 👍🏽 in four columns and ❤️ in one; see
 * `isWidthUncertain`), so the screen never lets the terminal's cursor count across one: such a grapheme is drawn
 * over blanked cells and followed by an absolute move to the column after it, and when one is drawn again its row
 * is rewritten from there to its end; one that stays as it was is not drawn again. Autowrap is off, so one drawn wider than measured is cut at the right
 * edge instead of spilling onto the next row.
 */
export interface TerminalScreen {
  readonly columns: number;
  readonly rows: number;
  /** Paints one frame: `lines` from the top (missing rows are blank), and the real cursor where the editor is. */
  paint(lines: readonly string[], cursor: CursorPosition | null): void;
  onResize(listener: () => void): () => void;
  /** The characters on screen, one string per row (for tests and benchmarks). */
  text(): string[];
  /** After another program had the terminal (an external editor): clears it, so the next paint draws every cell. */
  redrawAll(): void;
  /** Leaves the alternate screen and restores the terminal (cursor, modes). */
  destroy(): void;
}

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
// eslint-disable-next-line no-control-regex -- the moves a pinned cell carries start with ESC
const PINNED = /^\x1b\[\d+G +\x1b\[\d+G(.*)\x1b\[\d+G$/su;

type Cell = [number, string];
type Row = Cell[] & { dirty?: boolean };

/** Sets one cell, marking its row dirty only when the cell changes. */
function setCell(row: Row, x: number, attr: number, text: string): void {
  const cell = row[x];
  if (cell === undefined || (cell[0] === attr && cell[1] === text)) return;
  cell[0] = attr;
  cell[1] = text;
  row.dirty = true;
}

/** Sets one cell to the character at `line[index]`, making its one-character string only when the cell changes. */
function setCharCell(row: Row, x: number, attr: number, line: string, index: number): void {
  const cell = row[x];
  if (cell === undefined) return;
  const shown = cell[1];
  if (cell[0] === attr && shown.length === 1 && shown.charCodeAt(0) === line.charCodeAt(index)) return;
  cell[0] = attr;
  cell[1] = line.charAt(index);
  row.dirty = true;
}

/**
 * A cell's text for a grapheme terminals may draw at another width: blank the cells it should take (one drawn
 * narrower leaves no stale cell), draw it, then move to the column after it whatever the terminal advanced.
 * The cells are blanked with written spaces, not erased with ECH: tmux 3.3's ECH over the left half of a wide
 * character leaves its right half behind as an orphan, and the next character written there then wipes the
 * grapheme drawn before it. blessed writes a cell's text as it is, so the moves travel with the grapheme.
 */
function pinned(grapheme: string, column: number, width: number): string {
  const at = `\x1b[${column + 1}G`;
  return `${at}${' '.repeat(width)}${at}${grapheme}\x1b[${column + width + 1}G`;
}

/** The grapheme a cell shows, without the blanks and moves of a pinned one. */
const cellGrapheme = (text: string): string => (text.charCodeAt(0) === 0x1b ? (PINNED.exec(text)?.[1] ?? text) : text);

/** Columns a cell's grapheme takes, at most two (the padding cell of a wide one is a separate blank cell). */
function cellWidth(text: string): number {
  if (text.length === 1 && text.charCodeAt(0) < 0x7f) return 1;
  return Math.min(2, graphemeWidth(cellGrapheme(text)));
}

let widthsPatched = false;
/** blessed asks `charWidth(cell)` while drawing; answer with a current width table for whole graphemes. */
function patchBlessedWidths(): void {
  if (widthsPatched) return;
  widthsPatched = true;
  const unicode = (blessed as unknown as { unicode: { charWidth: (str: unknown, index?: number) => number } }).unicode;
  const original = unicode.charWidth;
  unicode.charWidth = (str, index) =>
    typeof str === 'string' && index === undefined ? cellWidth(str) : original(str, index);
}

export interface TerminalScreenOptions {
  /**
   * Whether a frame whose rows are the rows on screen moved up is drawn by scrolling a region (DECSTBM and SU) and
   * drawing only the rows that differ after it; default: when the terminal's terminfo has both. Off: every row that
   * changed is drawn again (the plain path), as with `PI_NO_SCROLL_REGIONS=1` in the environment, for a terminal
   * that scrolls regions wrongly.
   */
  readonly scrollRegions?: boolean;
}

export function createTerminalScreen(io: TerminalIO, options: TerminalScreenOptions = {}): TerminalScreen {
  patchBlessedWidths();
  // blessed gets a dead input stream: keys are decoded by the host, so blessed's parser never runs.
  const screen = blessed.screen({
    input: new PassThrough() as unknown as NodeJS.ReadableStream,
    output: io.output,
    terminal: 'xterm-256color',
    fullUnicode: true,
    warnings: false,
    smartCSR: true,
    autoPadding: false,
  } as unknown as blessed.Widgets.IScreenOptions);
  const program = screen.program;
  // Lines are drawn as UTF-8 text: no ACS line-drawing substitution (tmux and others show it as letters), no
  // ASCII fallback for characters above '~'.
  const tput = (
    screen as unknown as {
      tput: { brokenACS: boolean; unicode: boolean; strings: Record<string, string | undefined> };
    }
  ).tput;
  tput.brokenACS = true;
  tput.unicode = true;
  const scrollRegions =
    options.scrollRegions ??
    (process.env['PI_NO_SCROLL_REGIONS'] !== '1' &&
      tput.strings['change_scroll_region'] !== undefined &&
      tput.strings['parm_index'] !== undefined);
  program.flush();
  program.write(AUTOWRAP_OFF);
  const defaultAttr = (screen as unknown as { dattr: number }).dattr;
  const attrCode = (screen as unknown as { attrCode: (code: string, cur: number, def: number) => number }).attrCode;
  const lines = () => (screen as unknown as { lines: Row[] }).lines;
  /** What blessed believes the terminal shows, per row: the frame a diff is made against. */
  const shown = () => (screen as unknown as { olines: Cell[][] }).olines;

  /**
   * Lays one line into a row of cells; answers the column of its first uncertain grapheme, -1 without one. Printable
   * ASCII and characters that stand alone are one code unit per cell; only from a character that may join another
   * (an emoji sequence, a combining mark) to the next escape is the line split into graphemes.
   */
  const paintRow = (row: Row, line: string, width: number): number => {
    let uncertainAt = -1;
    let attr = defaultAttr;
    let x = 0;
    /** The character drawn alone right before `index`, and its column (-1 when an escape or graphemes came between). */
    let previous = -1;
    let previousX = 0;
    let index = 0;
    while (index < line.length && x < width) {
      const code = line.charCodeAt(index);
      if (code === 0x1b) {
        const length = escapeLength(line, index);
        // SGR changes the attributes; other sequences in a line take no cells and are not drawn.
        if (line.charCodeAt(index + 1) === 0x5b && line.charCodeAt(index + length - 1) === 0x6d)
          attr = attrCode.call(screen, line.slice(index, index + length), attr, defaultAttr);
        index += length;
        previous = -1;
        continue;
      }
      const single = code >= 0x20 && code < 0x7f ? 1 : certainStandaloneWidth(code);
      if (single > 0) {
        if (x + single > width) break;
        previous = index;
        previousX = x;
        setCharCell(row, x, attr, line, index);
        if (single === 2) setCell(row, x + 1, attr, ' ');
        x += single;
        index += 1;
        continue;
      }
      // It may join the character before it (1 + VS16 + keycap is one emoji): lay out from there.
      if (previous !== -1 && previous === index - 1) {
        index = previous;
        x = previousX;
      }
      previous = -1;
      const escape = line.indexOf('\x1b', index);
      const end = escape === -1 ? line.length : escape;
      let cut = false;
      for (const { segment } of segmenter.segment(line.slice(index, end))) {
        if (segment === '\t') {
          // A tab that reached the screen unexpanded still moves to the next tab stop, as a terminal's would.
          const stop = Math.min(width, x + TAB_STOP - (x % TAB_STOP));
          while (x < stop) setCell(row, x++, attr, ' ');
          continue;
        }
        const cells = Math.min(2, graphemeWidth(segment));
        if (cells === 0) continue;
        if (x + cells > width) {
          // A wide character that does not fit is left out whole; the cells after the cut are blank.
          cut = true;
          break;
        }
        if (isWidthUncertain(segment)) {
          if (uncertainAt === -1) uncertainAt = x;
          setCell(row, x, attr, pinned(segment, x, cells));
        } else setCell(row, x, attr, segment);
        if (cells === 2) setCell(row, x + 1, attr, ' ');
        x += cells;
      }
      if (cut) break;
      index = end;
    }
    while (x < width) setCell(row, x++, defaultAttr, ' ');
    return uncertainAt;
  };

  /** What blessed buffered to write since it last flushed, taken out of its buffer (its own flush then finds it empty). */
  const takeBuffered = (): string => {
    const buffered = program as unknown as { _buf: string };
    const text = buffered._buf;
    buffered._buf = '';
    return text;
  };

  /** The styled line laid into each row by the last paint (undefined: none to skip by), and the rows it was laid into. */
  let laidOut: (string | undefined)[] = [];
  let laidOutRows: Row[] | undefined;

  /**
   * A row is rewritten from its first uncertain grapheme that is drawn again (new, moved or restyled) to its end: the
   * terminal may draw it wider over the cells after it, so none of them may be skipped as unchanged. One that stays
   * as it is on screen is not drawn again (see `noteWideCellsDrawn`), and what follows it stays too.
   */
  const rewriteAfterUncertain = (y: number, from: number) => {
    const row = lines()[y];
    const old = shown()[y];
    if (row === undefined || old === undefined) return;
    let x = from;
    for (; x < old.length; x++) {
      const cell = row[x];
      const drawn = old[x];
      if (cell === undefined || drawn === undefined) continue;
      if (cell[1].charCodeAt(0) === 0x1b && (cell[0] !== drawn[0] || cell[1] !== drawn[1])) break;
    }
    for (; x < old.length; x++) {
      const cell = old[x];
      if (cell !== undefined) cell[0] = -1;
    }
  };

  /**
   * blessed marks every wide cell it draws as unknown ('\0') so that the next draw of its row writes it again, with
   * every emoji's pinning moves, whatever changed on the row. Our cells already say what the terminal shows (an
   * uncertain grapheme that changes rewrites the rest of its row, see above), so the wide cells just drawn are noted
   * as drawn, and a later frame skips them when they are unchanged. The padding cell gets its attributes too: blessed
   * leaves the old ones there, and a padding cell found different would be drawn over the wide character's right half.
   */
  const noteWideCellsDrawn = (y: number) => {
    const row = lines()[y];
    const old = shown()[y];
    if (row === undefined || old === undefined) return;
    for (let x = 0; x < old.length - 1; x++) {
      const drawn = old[x];
      const cell = row[x];
      const padding = old[x + 1];
      const cellPadding = row[x + 1];
      // blessed marked both halves; where it drew a blank instead (no room for the wide character) it did not.
      if (drawn?.[1] !== '\0' || padding?.[1] !== '\0' || cell === undefined || cellPadding?.[1] !== ' ') continue;
      drawn[0] = cell[0];
      drawn[1] = cell[1];
      padding[0] = cellPadding[0];
      padding[1] = cellPadding[1];
      x += 1;
    }
  };

  /**
   * A wide cell on screen that is about to change takes its padding cell along: what the terminal shows there is
   * not known (the right half of the old character, or, where a terminal drew a flag as two narrow indicators, the
   * second one), so it is drawn again even when the new frame has a blank there too.
   */
  const forgetPaddingOfChangedWideCells = (y: number) => {
    const row = lines()[y];
    const old = shown()[y];
    if (row === undefined || old === undefined) return;
    for (let x = 0; x < old.length - 1; x++) {
      const drawn = old[x];
      const cell = row[x];
      if (drawn === undefined || cell === undefined || (drawn[0] === cell[0] && drawn[1] === cell[1])) continue;
      const padding = old[x + 1];
      if (padding !== undefined && cellWidth(drawn[1]) === 2) padding[0] = -1;
    }
  };

  /**
   * Scrolls the terminal's region and moves our rows along: the cells blessed diffs against (`olines`), the cells laid
   * out and the line each was laid out from. The terminal moves whole rows, with whatever width it drew each grapheme
   * at (a pinned one's moves are columns only), so a moved row shows what it showed. The freed rows are blank on the
   * terminal (the attributes are the defaults between frames) and are laid out and drawn again. The cursor is saved
   * around the scroll, which homes it.
   */
  const scrollRegion = ({ top, bottom, by }: RegionScroll): string => {
    const rows = lines();
    const old = shown();
    const freedAt = bottom - by + 1;
    const freedRows = rows.splice(top, by);
    rows.splice(freedAt, 0, ...freedRows);
    const freedShown = old.splice(top, by);
    old.splice(freedAt, 0, ...freedShown);
    laidOut.splice(top, by);
    laidOut.splice(freedAt, 0, ...Array.from({ length: by }, () => undefined));
    for (let y = freedAt; y <= bottom; y++) {
      (rows[y] as Row).dirty = true;
      for (const cell of old[y] ?? []) {
        cell[0] = defaultAttr;
        cell[1] = ' ';
      }
    }
    return `\x1b7\x1b[${top + 1};${bottom + 1}r\x1b[${by}S\x1b[r\x1b8`;
  };

  return {
    get columns() {
      return screen.cols as number;
    },
    get rows() {
      return screen.rows as number;
    },
    paint(frame, cursor) {
      const rows = lines();
      if (rows !== laidOutRows) {
        // blessed allocated fresh rows (a resize, `redrawAll`): nothing of the last frame is in them.
        laidOutRows = rows;
        laidOut = [];
      }
      const width = screen.cols as number;
      const scroll = scrollRegions ? findRegionScroll(laidOut, frame, rows.length) : undefined;
      const scrolled = scroll === undefined ? '' : scrollRegion(scroll);
      const changed: number[] = [];
      for (let y = 0; y < rows.length; y++) {
        const row = rows[y] as Row;
        const line = frame[y] ?? '';
        // A row whose styled line is the one laid out last frame holds the same cells: skip it whole.
        if (laidOut[y] !== line) {
          laidOut[y] = line;
          const uncertainAt = paintRow(row, line, width);
          if (uncertainAt !== -1 && row.dirty === true) rewriteAfterUncertain(y, uncertainAt);
        }
        if (row.dirty === true) changed.push(y);
      }
      // blessed buffers what it draws (and the cursor's moves) until it flushes; the frame is taken from that buffer
      // and written once, inside the markers: each write to a terminal is a system call and a wake-up of the
      // terminal's reader, and three a frame were most of the CPU a streamed answer cost (issue 21).
      const earlier = takeBuffered();
      for (const y of changed) forgetPaddingOfChangedWideCells(y);
      screen.draw(0, rows.length - 1);
      for (const y of changed) noteWideCellsDrawn(y);
      if (cursor === null) program.hideCursor();
      else {
        program.cup(cursor.row, cursor.col);
        program.showCursor();
      }
      program.write(earlier + SYNC_BEGIN + scrolled + takeBuffered() + SYNC_END);
    },
    onResize(listener) {
      screen.on('resize', listener);
      return () => void screen.off('resize', listener);
    },
    text() {
      return lines().map((row) => {
        let out = '';
        for (let x = 0; x < row.length; x++) {
          const ch = row[x]?.[1] ?? ' ';
          out += cellGrapheme(ch);
          // A wide character fills the cell after it too.
          if (cellWidth(ch) === 2) x += 1;
        }
        return out;
      });
    },
    redrawAll() {
      // Whoever had the terminal may have turned autowrap back on.
      program.write(AUTOWRAP_OFF);
      (screen as unknown as { realloc(): void }).realloc();
    },
    destroy() {
      program.write(AUTOWRAP_ON);
      program.write('\x1b[?2004l');
      program.showCursor();
      screen.destroy();
    },
  };
}
