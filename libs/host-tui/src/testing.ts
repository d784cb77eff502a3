import { PassThrough } from 'node:stream';
import type { TerminalIO } from './terminal-screen';

/** A terminal in memory: write keys to `input`, read what was written from `written()`, resize at will. */
export interface VirtualTerminal extends TerminalIO {
  readonly input: PassThrough;
  readonly output: PassThrough & { columns: number; rows: number; isTTY: boolean };
  /** Everything the host wrote so far. */
  written(): string;
  resize(columns: number, rows: number): void;
}

export function createVirtualTerminal(columns = 80, rows = 24): VirtualTerminal {
  const input = new PassThrough();
  const output = Object.assign(new PassThrough(), { columns, rows, isTTY: true });
  let bytes = '';
  output.on('data', (chunk: Buffer) => (bytes += chunk.toString('utf8')));
  return {
    input,
    output,
    written: () => bytes,
    resize(nextColumns, nextRows) {
      output.columns = nextColumns;
      output.rows = nextRows;
      output.emit('resize');
    },
  };
}
