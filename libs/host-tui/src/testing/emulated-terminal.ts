import { createRequire } from 'node:module';
import type * as XtermHeadless from '@xterm/headless';
import { createVirtualTerminal, type VirtualTerminal } from '../testing';

// @xterm/headless is a CommonJS bundle whose named exports Node's ESM loader cannot see.
const { Terminal } = createRequire(import.meta.url)('@xterm/headless') as typeof XtermHeadless;

/** How the emulated terminal measures one code point; a zero-width one joins the character before it. */
export type CodePointWidths = (codePoint: number) => 0 | 1 | 2;

/** One cell as the terminal shows it: its characters, and 0 for the right half of a wide character. */
export interface ShownCell {
  readonly chars: string;
  readonly width: number;
}

/** A virtual terminal whose output a headless xterm draws, with widths of the test's choosing. */
export interface EmulatedTerminal extends VirtualTerminal {
  /** Each row's cells once everything written so far is drawn. */
  cells(): Promise<ShownCell[][]>;
  cursor(): Promise<{ row: number; col: number }>;
  dispose(): void;
}

export function createEmulatedTerminal(columns: number, rows: number, widthOf: CodePointWidths): EmulatedTerminal {
  const virtual = createVirtualTerminal(columns, rows);
  const xterm = new Terminal({ cols: columns, rows, allowProposedApi: true, scrollback: 0 });
  xterm.unicode.register({
    version: 'test',
    wcwidth: widthOf,
    // As xterm's own providers do: a zero-width code point joins the cell before it and keeps its width.
    charProperties(codePoint, preceding) {
      let width = widthOf(codePoint);
      const before = (preceding >> 1) & 3;
      const joins = width === 0 && preceding !== 0 && before !== 0;
      if (joins) width = before as 1 | 2;
      return (width << 1) | (joins ? 1 : 0);
    },
  });
  xterm.unicode.activeVersion = 'test';
  virtual.output.on('data', (chunk: Buffer) => xterm.write(chunk.toString('utf8')));
  const drawn = () => new Promise<void>((resolve) => xterm.write('', resolve));
  return {
    ...virtual,
    async cells() {
      await drawn();
      const buffer = xterm.buffer.active;
      return Array.from({ length: rows }, (_, row) => {
        const line = buffer.getLine(buffer.viewportY + row);
        return Array.from({ length: columns }, (_, col) => {
          const cell = line?.getCell(col);
          return { chars: cell?.getChars() ?? '', width: cell?.getWidth() ?? 1 };
        });
      });
    },
    async cursor() {
      await drawn();
      return { row: xterm.buffer.active.cursorY, col: xterm.buffer.active.cursorX };
    },
    dispose: () => xterm.dispose(),
  };
}
