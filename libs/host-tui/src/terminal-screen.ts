import { PassThrough } from 'node:stream';
import blessed from 'blessed';
import {
  AUTOWRAP_OFF,
  AUTOWRAP_ON,
  SYNC_BEGIN,
  SYNC_END,
  TAB_STOP,
  graphemeWidth,
  isWidthUncertain,
} from '@pi/terminal';

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
 * over erased cells and followed by an absolute move to the column after it, and a row holding one is rewritten
 * from there to its end whenever it changes. Autowrap is off, so one drawn wider than measured is cut at the right
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

// eslint-disable-next-line no-control-regex -- SGR sequences start with ESC
const SGR = /\x1b\[[0-9;]*m/y;
const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
// eslint-disable-next-line no-control-regex -- the moves a pinned cell carries start with ESC
const PIN_MOVES = /\x1b\[\d*[XG]/g;

/**
 * A cell's text for a grapheme terminals may draw at another width: erase the cells it should take (one drawn
 * narrower leaves no stale cell), draw it, then move to the column after it whatever the terminal advanced.
 * blessed writes a cell's text as it is, so the moves travel with the grapheme and are rewritten with it.
 */
function pinned(grapheme: string, column: number, width: number): string {
  return `\x1b[${width}X${grapheme}\x1b[${column + width + 1}G`;
}

/** The grapheme a cell shows, without the moves of a pinned one. */
const cellGrapheme = (text: string): string => (text.charCodeAt(0) === 0x1b ? text.replace(PIN_MOVES, '') : text);

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

export function createTerminalScreen(io: TerminalIO): TerminalScreen {
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
  const tput = (screen as unknown as { tput: { brokenACS: boolean; unicode: boolean } }).tput;
  tput.brokenACS = true;
  tput.unicode = true;
  program.flush();
  program.write(AUTOWRAP_OFF);
  const defaultAttr = (screen as unknown as { dattr: number }).dattr;
  type Cell = [number, string];
  type Row = Cell[] & { dirty?: boolean };
  const lines = () => (screen as unknown as { lines: Row[] }).lines;
  /** What blessed believes the terminal shows, per row: the frame a diff is made against. */
  const shown = () => (screen as unknown as { olines: Cell[][] }).olines;

  /** Lays one line into a row of cells; answers the column of its first uncertain grapheme, -1 without one. */
  const paintRow = (row: Row, text: string, width: number): number => {
    let uncertainAt = -1;
    let attr = defaultAttr;
    let x = 0;
    const put = (cell: Cell) => {
      const current = row[x];
      if (current === undefined) return;
      if (current[0] !== cell[0] || current[1] !== cell[1]) {
        current[0] = cell[0];
        current[1] = cell[1];
        row.dirty = true;
      }
      x += 1;
    };
    let index = 0;
    while (index < text.length && x < width) {
      SGR.lastIndex = index;
      const escape = SGR.exec(text);
      if (escape !== null) {
        attr = (screen as unknown as { attrCode: (code: string, cur: number, def: number) => number }).attrCode(
          escape[0],
          attr,
          defaultAttr,
        );
        index = SGR.lastIndex;
        continue;
      }
      const next = text.indexOf('\x1b', index);
      const run = text.slice(index, next === -1 ? text.length : next === index ? index + 1 : next);
      if (PRINTABLE_ASCII.test(run)) {
        // Most of a frame is plain ASCII, one cell per character: no segmenting and no width lookups for it.
        for (let at = 0; at < run.length && x < width; at++) put([attr, run.charAt(at)]);
        index += run.length;
        continue;
      }
      for (const { segment } of segmenter.segment(run)) {
        if (segment === '\t') {
          // A tab that reached the screen unexpanded still moves to the next tab stop, as a terminal's would.
          const stop = Math.min(width, x + TAB_STOP - (x % TAB_STOP));
          while (x < stop) put([attr, ' ']);
          continue;
        }
        const cells = Math.min(2, graphemeWidth(segment));
        if (cells === 0) continue;
        if (x + cells > width) {
          x = width;
          break;
        }
        if (isWidthUncertain(segment)) {
          if (uncertainAt === -1) uncertainAt = x;
          put([attr, pinned(segment, x, cells)]);
        } else put([attr, segment]);
        if (cells === 2) put([attr, ' ']);
      }
      index += run.length;
    }
    while (x < width) put([defaultAttr, ' ']);
    return uncertainAt;
  };

  /**
   * A changed row with an uncertain grapheme is rewritten from that grapheme to its end: the terminal may have drawn
   * it wider over the cells after it, so none of them may be skipped as unchanged.
   */
  const rewriteAfterUncertain = (y: number, from: number) => {
    const old = shown()[y];
    if (old === undefined) return;
    for (let x = from; x < old.length; x++) {
      const cell = old[x];
      if (cell !== undefined) cell[0] = -1;
    }
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
      const width = screen.cols as number;
      rows.forEach((row, y) => {
        const uncertainAt = paintRow(row, frame[y] ?? '', width);
        if (uncertainAt !== -1 && row.dirty === true) rewriteAfterUncertain(y, uncertainAt);
      });
      // blessed buffers the frame and writes it on flush(); the markers are written directly, so they go around
      // the flushed frame: begin, frame, end.
      program.flush();
      program.write(SYNC_BEGIN);
      screen.draw(0, rows.length - 1);
      if (cursor === null) program.hideCursor();
      else {
        program.cup(cursor.row, cursor.col);
        program.showCursor();
      }
      program.flush();
      program.write(SYNC_END);
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
