import type { OutboundStream } from '@pi/remote';
import { ArrayBacklog, type Backlog } from './backlog';
import type { OutboundPressure } from './outbound-pressure';

/** Starts the source of a stream: frames go to `push`, a final failure to `fail`; returns how to stop it. */
export type StreamSource<T> = (push: (frame: T) => void, fail: (error: unknown) => void) => () => void;

/**
 * A subscription's frames, reporting to the endpoint when each one is on the wire: piped by our wire server
 * (`pipe`: a frame is written when `write` returns), or pulled as an async iterator by tRPC's ws adapter, which
 * writes the value a `next()` gave it before it asks again, so the next `next()` (or the end of the stream) is the
 * moment the previous frame was written. Without that report a call's result, written at once, could overtake the
 * frames.
 *
 * With a `pressure`, a frame is not handed out (or written) while the connection's socket is over its high-water
 * mark: the frames wait in the backlog, which may coalesce them (`WatchBacklog`), until the socket drains.
 *
 * Frames buffered when the source fails are still delivered, then the failure; the source is stopped at once.
 */
export class FrameStream<T, Out = T> implements AsyncIterableIterator<Out> {
  readonly #outbound: OutboundStream;
  readonly #buffer: Backlog<T, Out>;
  readonly #pressure: OutboundPressure | undefined;
  #waiting: { resolve(result: IteratorResult<Out>): void; reject(error: unknown): void } | undefined;
  /** The stream waits for the socket to drain before handing out what it holds. */
  #cancelDrainWait: (() => void) | undefined;
  #failure: { error: unknown } | undefined;
  /** How many handed frames the frame handed to the adapter stands for, until it is known to be written. */
  #handedOut = 0;
  #stopped = false;
  #stop: () => void = () => undefined;
  /** Set by `pipe`: frames are written as they may go instead of being pulled. */
  #writer: { write(frame: Out): void; resolve(): void; reject(error: unknown): void } | undefined;

  constructor(
    source: StreamSource<T>,
    outbound: OutboundStream,
    options: { readonly backlog?: Backlog<T, Out>; readonly pressure?: OutboundPressure } = {},
  ) {
    this.#outbound = outbound;
    this.#buffer = options.backlog ?? (new ArrayBacklog<T>() as unknown as Backlog<T, Out>);
    this.#pressure = options.pressure;
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

  next(): Promise<IteratorResult<Out>> {
    this.#confirmWritten();
    if (this.#buffer.length > 0) {
      if (this.#pressure?.congested === true) return this.#waitForDrain();
      return Promise.resolve({ value: this.#handOut(), done: false });
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
  return(): Promise<IteratorResult<Out>> {
    this.#buffer.clear();
    this.#failure = undefined;
    this.#finish();
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.resolve({ value: undefined, done: true });
    const writer = this.#writer;
    this.#writer = undefined;
    writer?.resolve();
    return Promise.resolve({ value: undefined, done: true });
  }

  /**
   * Writes each frame with `write` as soon as it may go — at once, or once a congested socket drains — for a server
   * that writes frames itself (our wire server) rather than pulling them: no promise per frame, which is most of a
   * frame's cost when one change goes to a thousand connections. A frame counts as written when `write` returns.
   * Resolves when the stream is ended (`return`); rejects with the source's failure, after the frames held before it.
   */
  pipe(write: (frame: Out) => void): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#writer = { write, resolve, reject };
      this.#flush();
    });
  }

  #flush(): void {
    const writer = this.#writer;
    if (writer === undefined || this.#cancelDrainWait !== undefined) return;
    while (this.#buffer.length > 0) {
      if (this.#pressure?.congested === true) return this.#holdUntilDrained();
      writer.write(this.#handOut());
      this.#confirmWritten();
    }
    if (this.#failure === undefined) return;
    const { error } = this.#failure;
    this.#failure = undefined;
    this.#writer = undefined;
    this.#finish();
    writer.reject(error);
  }

  #push(frame: T): void {
    if (this.#stopped || this.#failure !== undefined) return;
    this.#outbound.queued();
    this.#buffer.push(frame, this.#pressure?.underPressure === true);
    if (this.#writer !== undefined) return this.#flush();
    const waiting = this.#waiting;
    if (waiting === undefined || this.#cancelDrainWait !== undefined) return;
    if (this.#pressure?.congested === true) return void this.#holdUntilDrained();
    this.#waiting = undefined;
    waiting.resolve({ value: this.#handOut(), done: false });
  }

  #handOut(): Out {
    const shifted = this.#buffer.shift() as { frame: Out; weight: number };
    this.#handedOut = shifted.weight;
    return shifted.frame;
  }

  #waitForDrain(): Promise<IteratorResult<Out>> {
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject };
      this.#holdUntilDrained();
    });
  }

  #holdUntilDrained(): void {
    this.#cancelDrainWait = this.#pressure?.whenDrained(() => {
      this.#cancelDrainWait = undefined;
      if (this.#writer !== undefined) return this.#flush();
      const waiting = this.#waiting;
      if (waiting === undefined || this.#buffer.length === 0) return;
      this.#waiting = undefined;
      waiting.resolve({ value: this.#handOut(), done: false });
    });
  }

  #fail(error: unknown): void {
    if (this.#stopped || this.#failure !== undefined) return;
    this.#halt();
    if (this.#writer !== undefined) {
      this.#failure = { error };
      return this.#flush();
    }
    const waiting = this.#waiting;
    // Frames held for a drain go out first; the failure follows them.
    if (waiting === undefined || this.#buffer.length > 0) return void (this.#failure = { error });
    this.#waiting = undefined;
    this.#finish();
    waiting.reject(error);
  }

  #confirmWritten(): void {
    for (; this.#handedOut > 0; this.#handedOut -= 1) this.#outbound.written();
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
    this.#cancelDrainWait?.();
    this.#cancelDrainWait = undefined;
    this.#halt();
    this.#outbound.close();
  }
}
