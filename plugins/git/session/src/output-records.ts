/** A record's consumer: returns a problem to stop reading (the command is then ended), or nothing to go on. */
export type RecordConsumer = (record: string) => string | undefined;

/** `-z` output ends every record with NUL; line output with a newline (the last one may lack it). */
export type RecordSeparator = 'nul' | 'newline';

/** The longest record kept while waiting for its end: far beyond any path, small enough to never matter. */
export const MAX_RECORD_BYTES = 64 * 1024;

/**
 * Splits a command's output into records as it arrives, so only one unfinished record is ever held: the
 * output of `git status` on a huge tree is counted, never buffered whole.
 */
export class RecordSplitter {
  private readonly separator: number;
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(
    private readonly kind: RecordSeparator,
    private readonly consume: RecordConsumer,
    private readonly maxRecordBytes = MAX_RECORD_BYTES,
  ) {
    this.separator = kind === 'nul' ? 0 : 0x0a;
  }

  /** Feeds a chunk; returns the first problem (a record too long, or the consumer's). */
  push(chunk: Buffer): string | undefined {
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(this.separator, start);
      const piece = chunk.subarray(start, end === -1 ? chunk.length : end);
      this.pendingBytes += piece.length;
      if (this.pendingBytes > this.maxRecordBytes) return `a record is longer than ${this.maxRecordBytes} bytes`;
      if (end === -1) {
        if (piece.length > 0) this.pending.push(piece);
        return undefined;
      }
      const problem = this.consume(this.take(piece));
      if (problem !== undefined) return problem;
      start = end + 1;
    }
  }

  /** The output ended: a NUL-separated record left open is a problem; a last line without newline is a line. */
  end(): string | undefined {
    if (this.pendingBytes === 0) return undefined;
    if (this.kind === 'nul') return 'the output ends in the middle of a record';
    return this.consume(this.take(Buffer.alloc(0)));
  }

  private take(last: Buffer): string {
    const record = this.pending.length === 0 ? last : Buffer.concat([...this.pending, last]);
    this.pending = [];
    this.pendingBytes = 0;
    return record.toString('utf8');
  }
}
