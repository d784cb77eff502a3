/**
 * Incremental decoder for the Server-Sent Events wire format (the subset chat-completion streams use).
 *
 * Wire shape: lines ending in CRLF, LF or CR; `data: <text>` lines accumulate (several are joined with "\n");
 * a blank line dispatches the accumulated data as one event; lines starting with `:` are comments
 * (keep-alives); other fields (`event:`, `id:`, `retry:`) are ignored. Chunks may split anywhere, even between
 * the CR and LF of one line break, so the decoder keeps the unfinished line between pushes.
 */
export class SseDecoder {
  #partialLine = '';
  #dataLines: string[] = [];
  /** The previous chunk ended in CR: a LF opening the next chunk belongs to that same line break. */
  #skipLeadingLineFeed = false;

  /** Feeds decoded text; returns the data of every event completed by it. */
  push(text: string): string[] {
    let input = text;
    if (input === '') return [];
    if (this.#skipLeadingLineFeed && input.startsWith('\n')) input = input.slice(1);
    const buffer = this.#partialLine + input;
    this.#skipLeadingLineFeed = buffer.endsWith('\r');
    const events: string[] = [];
    let lineStart = 0;
    for (const lineBreak of buffer.matchAll(/\r\n|\r|\n/g)) {
      this.#acceptLine(buffer.slice(lineStart, lineBreak.index), events);
      lineStart = lineBreak.index + lineBreak[0].length;
    }
    this.#partialLine = buffer.slice(lineStart);
    return events;
  }

  /**
   * Ends the stream. An unfinished last line is dropped (the connection cut it); complete data lines whose
   * closing blank line never came are still dispatched, as lenient servers omit it.
   */
  finish(): string[] {
    const events: string[] = [];
    if (this.#partialLine === '') this.#dispatch(events);
    this.#partialLine = '';
    this.#dataLines = [];
    return events;
  }

  #acceptLine(line: string, events: string[]): void {
    if (line === '') return this.#dispatch(events);
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    if (field !== 'data') return;
    const value = colon === -1 ? '' : line.slice(colon + 1);
    this.#dataLines.push(value.startsWith(' ') ? value.slice(1) : value);
  }

  #dispatch(events: string[]): void {
    if (this.#dataLines.length === 0) return;
    events.push(this.#dataLines.join('\n'));
    this.#dataLines = [];
  }
}
