import type { OutboundStream } from '@pi/remote';

/** Starts the source of a stream: frames go to `push`, a final failure to `fail`; returns how to stop it. */
export type StreamSource<T> = (push: (frame: T) => void, fail: (error: unknown) => void) => () => void;

/**
 * A subscription's frames as the async iterator tRPC's ws adapter pulls, reporting to the endpoint when each one
 * is on the wire. The adapter writes the value a `next()` gave it before it asks again, so the next `next()` (or
 * the end of the stream) is the moment the previous frame was written. An observable would be buffered by tRPC
 * in the same way but without that report, and a call's result, written at once, could overtake the frames.
 *
 * Frames buffered when the source fails are still delivered, then the failure; the source is stopped at once.
 */
export class FrameStream<T> implements AsyncIterableIterator<T> {
  readonly #outbound: OutboundStream;
  readonly #buffer: T[] = [];
  #waiting: { resolve(result: IteratorResult<T>): void; reject(error: unknown): void } | undefined;
  #failure: { error: unknown } | undefined;
  /** A frame was handed to the adapter and is not yet known to be written. */
  #handedOut = false;
  #stopped = false;
  #stop: () => void = () => undefined;

  constructor(source: StreamSource<T>, outbound: OutboundStream) {
    this.#outbound = outbound;
    try {
      const stop = source(
        (frame) => this.#push(frame),
        (error) => this.#fail(error),
      );
      if (this.#stopped) stop();
      else this.#stop = stop;
    } catch (error) {
      this.#fail(error);
    }
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<T>> {
    this.#confirmWritten();
    if (this.#buffer.length > 0) {
      this.#handedOut = true;
      return Promise.resolve({ value: this.#buffer.shift() as T, done: false });
    }
    if (this.#failure !== undefined) {
      const { error } = this.#failure;
      this.#failure = undefined;
      this.#finish();
      return Promise.reject(error);
    }
    if (this.#stopped) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => (this.#waiting = { resolve, reject }));
  }

  /** The adapter is done with the stream (stopped, socket closed, or after a failure). */
  return(): Promise<IteratorResult<T>> {
    this.#buffer.length = 0;
    this.#failure = undefined;
    this.#finish();
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.resolve({ value: undefined, done: true });
    return Promise.resolve({ value: undefined, done: true });
  }

  #push(frame: T): void {
    if (this.#stopped || this.#failure !== undefined) return;
    this.#outbound.queued();
    const waiting = this.#waiting;
    if (waiting === undefined) return void this.#buffer.push(frame);
    this.#waiting = undefined;
    this.#handedOut = true;
    waiting.resolve({ value: frame, done: false });
  }

  #fail(error: unknown): void {
    if (this.#stopped || this.#failure !== undefined) return;
    this.#halt();
    const waiting = this.#waiting;
    if (waiting === undefined) return void (this.#failure = { error });
    this.#waiting = undefined;
    this.#finish();
    waiting.reject(error);
  }

  #confirmWritten(): void {
    if (!this.#handedOut) return;
    this.#handedOut = false;
    this.#outbound.written();
  }

  /** Stops the source; frames already buffered stay for `next`. */
  #halt(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    const stop = this.#stop;
    this.#stop = () => undefined;
    stop();
  }

  #finish(): void {
    this.#halt();
    this.#outbound.close();
  }
}
