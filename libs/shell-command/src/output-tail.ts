import { stripVTControlCharacters } from 'node:util';

/** What a command printed, as the model reads it: the tail, cleaned, and whether anything before it was dropped. */
export interface CommandOutput {
  readonly text: string;
  readonly truncated: boolean;
  /** Bytes printed in all (stdout and stderr). */
  readonly totalBytes: number;
}

/**
 * Keeps the last `maxBytes` of a command's output as it streams (errors and summaries come last), in bounded
 * memory however much it prints.
 */
export class OutputTail {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private total = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly maxLines: number,
  ) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    this.chunks.push(chunk);
    this.kept += chunk.length;
    for (let first = this.chunks[0]; first !== undefined && this.kept - first.length >= this.maxBytes;) {
      this.chunks.shift();
      this.kept -= first.length;
      first = this.chunks[0];
    }
  }

  /**
   * The kept tail as text: cut to `maxBytes` and `maxLines`, starting at a whole line when cut; terminal escape
   * sequences removed; `\r\n` as `\n`; a line redrawn with `\r` (progress bars) as its last state.
   */
  output(): CommandOutput {
    let bytes = Buffer.concat(this.chunks);
    let truncated = this.total > bytes.length;
    if (bytes.length > this.maxBytes) {
      bytes = bytes.subarray(bytes.length - this.maxBytes);
      truncated = true;
    }
    let text = bytes.toString('utf8');
    if (truncated) {
      const firstBreak = text.indexOf('\n');
      text = firstBreak === -1 ? text.replace(/^\uFFFD+/, '') : text.slice(firstBreak + 1);
    }
    let lines = stripVTControlCharacters(text)
      .split('\n')
      .map((line) => line.replace(/\r+$/, '').split('\r').at(-1) ?? '');
    if (lines.at(-1) === '') lines.pop();
    if (lines.length > this.maxLines) {
      lines = lines.slice(lines.length - this.maxLines);
      truncated = true;
    }
    return { text: lines.join('\n'), truncated, totalBytes: this.total };
  }
}

/** A size of output as people read it in a notice: `512 bytes`, `3.4 KiB`, `1.2 MiB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
