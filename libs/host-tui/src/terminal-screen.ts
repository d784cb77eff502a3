import { PassThrough } from 'node:stream';
import blessed from 'blessed';
import { SYNC_BEGIN, SYNC_END } from '@pi/terminal';
import stringWidth from 'string-width';

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

let widthsPatched = false;
/** blessed asks `charWidth(cell)` while drawing; answer with a current width table for whole graphemes. */
function patchBlessedWidths(): void {
  if (widthsPatched) return;
  widthsPatched = true;
  const unicode = (blessed as unknown as { unicode: { charWidth: (str: unknown, index?: number) => number } }).unicode;
  const original = unicode.charWidth;
  unicode.charWidth = (str, index) =>
    typeof str === 'string' && index === undefined ? Math.min(2, stringWidth(str)) : original(str, index);
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
  const defaultAttr = (screen as unknown as { dattr: number }).dattr;
  type Cell = [number, string];
  const lines = () => (screen as unknown as { lines: Array<Cell[] & { dirty?: boolean }> }).lines;

  const paintRow = (row: Cell[] & { dirty?: boolean }, text: string, width: number) => {
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
        const cells = stringWidth(segment);
        if (cells === 0) continue;
        if (x + cells > width) {
          x = width;
          break;
        }
        put([attr, segment]);
        if (cells === 2) put([attr, ' ']);
      }
      index += run.length;
    }
    while (x < width) put([defaultAttr, ' ']);
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
      rows.forEach((row, y) => paintRow(row, frame[y] ?? '', width));
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
          out += ch;
          // A wide character fills the cell after it too; ASCII never is one, and needs no width lookup.
          if ((ch.length > 1 || ch.charCodeAt(0) > 0x7e) && stringWidth(ch) === 2) x += 1;
        }
        return out;
      });
    },
    redrawAll() {
      (screen as unknown as { realloc(): void }).realloc();
    },
    destroy() {
      program.write('\x1b[?2004l');
      program.showCursor();
      screen.destroy();
    },
  };
}
