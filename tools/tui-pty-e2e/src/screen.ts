import type { Terminal } from '@xterm/headless';

/** One cell of the screen: what it shows and how many columns it takes (0 for the tail of a wide character). */
export interface Cell {
  readonly chars: string;
  readonly width: number;
}

export interface Position {
  readonly row: number;
  readonly column: number;
}

/** A snapshot of what the terminal shows, read from xterm's buffer (the viewport, not the scrollback). */
export interface Screen {
  readonly cols: number;
  readonly rows: number;
  /** Each row's text, trailing blanks trimmed. */
  readonly lines: readonly string[];
  /** The rows joined by newlines: what a person would read. */
  readonly text: string;
  readonly cursor: Position;
  cells(row: number): readonly Cell[];
  /** Where `text` first appears, in cells (a wide character counts two columns); undefined if it does not. */
  find(text: string): Position | undefined;
}

export function readScreen(terminal: Terminal): Screen {
  const buffer = terminal.buffer.active;
  const grid: Cell[][] = [];
  for (let row = 0; row < terminal.rows; row++) {
    const line = buffer.getLine(buffer.viewportY + row);
    const cells: Cell[] = [];
    for (let column = 0; column < terminal.cols; column++) {
      const cell = line?.getCell(column);
      cells.push({ chars: cell?.getChars() ?? '', width: cell?.getWidth() ?? 1 });
    }
    grid.push(cells);
  }
  const rows = grid.map(rowText);
  const lines = rows.map((row) => row.text.trimEnd());
  return {
    cols: terminal.cols,
    rows: terminal.rows,
    lines,
    text: lines.join('\n'),
    cursor: { row: buffer.cursorY, column: buffer.cursorX },
    cells: (row) => grid[row] ?? [],
    find(text) {
      for (const [row, { text: line, columns }] of rows.entries()) {
        const index = line.indexOf(text);
        if (index >= 0) return { row, column: columns[index] ?? 0 };
      }
      return undefined;
    },
  };
}

/** A row as a string, with the column each UTF-16 offset of it starts in. */
function rowText(cells: readonly Cell[]): { text: string; columns: number[] } {
  let text = '';
  const columns: number[] = [];
  cells.forEach((cell, column) => {
    if (cell.width === 0) return;
    const chars = cell.chars === '' ? ' ' : cell.chars;
    for (let unit = 0; unit < chars.length; unit++) columns.push(column);
    text += chars;
  });
  return { text, columns };
}
