import { createParser, type EventSourceParser } from 'eventsource-parser';

/**
 * Incremental decoder for the Server-Sent Events wire format, on `eventsource-parser` (the WHATWG parsing rules:
 * CRLF, LF or CR line breaks, `data:` lines joined with "\n", a blank line dispatches, `:` comments skipped, chunks
 * split anywhere). What it adds is how a stream ends, for the chat streams providers send: complete data lines whose
 * closing blank line never came are still dispatched (lenient servers omit it), and a last line the connection cut
 * off is dropped.
 */
export class SseDecoder {
  readonly #parser: EventSourceParser;
  #events: string[] = [];
  #atLineEnd = true;

  constructor() {
    this.#parser = createParser({ onEvent: (event) => void this.#events.push(event.data) });
  }

  /** Feeds decoded text; returns the data of every event completed by it. */
  push(text: string): string[] {
    if (text === '') return [];
    this.#parser.feed(text);
    this.#atLineEnd = text.endsWith('\n') || text.endsWith('\r');
    return this.#take();
  }

  /** Ends the stream: the data of an event left without its blank line, unless its last line was cut off. */
  finish(): string[] {
    // Two line breaks end the event even when the stream stopped between the CR and the LF of one.
    if (this.#atLineEnd) this.#parser.feed('\n\n');
    this.#parser.reset();
    this.#atLineEnd = true;
    return this.#take();
  }

  #take(): string[] {
    const events = this.#events;
    this.#events = [];
    return events;
  }
}
