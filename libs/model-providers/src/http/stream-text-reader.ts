import type { Readable } from 'node:stream';

interface Waiting {
  readonly resolve: (text: string | null) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Reads a text stream a piece at a time, each read a promise: what `for await` over the stream gives, without an
 * async generator and a result object per read. A read takes everything buffered so far as one text. What arrived
 * before a failure is read before the failure.
 */
export class StreamTextReader {
  readonly #stream: Readable;
  #waiting: Waiting | null = null;
  #ended = false;
  #failure: Error | null = null;
  readonly #onReadable = (): void => this.#settle();

  constructor(stream: Readable) {
    this.#stream = stream;
    stream.on('readable', this.#onReadable);
    stream.on('end', () => {
      this.#ended = true;
      this.#settle();
    });
    stream.on('error', (error) => {
      this.#failure = error;
      this.#settle();
    });
    stream.on('close', () => {
      // Destroyed without an error (cancelled): a read still waiting must not wait forever.
      if (!this.#ended && this.#failure === null) this.#failure = new Error('the response was closed before its end');
      this.#settle();
    });
  }

  read(): Promise<string | null> {
    if (this.#waiting !== null) return Promise.reject(new Error('a read is already waiting'));
    const outcome = this.#poll();
    if (outcome === undefined) return new Promise((resolve, reject) => (this.#waiting = { resolve, reject }));
    return outcome instanceof Error ? Promise.reject(outcome) : Promise.resolve(outcome);
  }

  async text(): Promise<string> {
    let text = '';
    for (let piece = await this.read(); piece !== null; piece = await this.read()) text += piece;
    return text;
  }

  /** Stops reading: whatever is left flows out and is dropped, so the stream reaches its end. */
  drain(): void {
    this.#stream.off('readable', this.#onReadable);
    this.#stream.resume();
  }

  /** A piece, null at the end, the failure, or undefined while nothing has come. */
  #poll(): string | null | Error | undefined {
    const text = this.#stream.read() as string | null;
    if (text !== null) return text;
    if (this.#failure !== null) return this.#failure;
    return this.#ended ? null : undefined;
  }

  #settle(): void {
    const waiting = this.#waiting;
    if (waiting === null) return;
    const outcome = this.#poll();
    if (outcome === undefined) return;
    this.#waiting = null;
    if (outcome instanceof Error) waiting.reject(outcome);
    else waiting.resolve(outcome);
  }
}
