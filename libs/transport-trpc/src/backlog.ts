/**
 * The frames one stream holds until the adapter pulls them. `weight` is how many frames handed to the stream an
 * outgoing frame stands for: a frame that replaced older ones (a coalesced state change, the frame after an
 * overflow) counts them too, so a call's result still waits until a frame at least as new as its own is written.
 */
export interface Backlog<In, Out> {
  readonly length: number;
  /** `pressure`: the connection is not draining; the backlog may coalesce or drop what it holds. */
  push(frame: In, pressure: boolean): void;
  shift(): { readonly frame: Out; readonly weight: number } | undefined;
  clear(): void;
}

/** Holds every frame, in order: for streams whose frames must all arrive (interactions). */
export class ArrayBacklog<T> implements Backlog<T, T> {
  readonly #frames: T[] = [];

  get length(): number {
    return this.#frames.length;
  }

  push(frame: T): void {
    this.#frames.push(frame);
  }

  shift(): { frame: T; weight: number } | undefined {
    if (this.#frames.length === 0) return undefined;
    return { frame: this.#frames.shift() as T, weight: 1 };
  }

  clear(): void {
    this.#frames.length = 0;
  }
}
