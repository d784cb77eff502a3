/** A transport's report on one stream of frames: what it was handed, and when each of those reached the wire. */
export interface OutboundStream {
  /** The endpoint handed the transport one more frame of this stream. */
  queued(): void;
  /** The transport wrote the oldest frame it had not yet written. */
  written(): void;
  /** The stream ended: frames not yet written never will be, and nothing waits for them. */
  close(): void;
}

interface Tally {
  queued: number;
  written: number;
  /** Waiters for a count of written frames, oldest (smallest count) first. */
  readonly waiters: Array<{ readonly until: number; readonly resolve: () => void }>;
}

/**
 * Read-your-writes for one connection: a call's outcome waits until the frames its connection's streams had been
 * handed before it are written. A transport may write stream frames later than it is handed them (tRPC's ws
 * adapter pulls each subscription frame through an async iterator, a few microtasks apart, but writes a call's
 * result the moment the procedure returns), so without this a result overtakes the state changes its call made.
 */
export class OutboundFrames {
  readonly #streams = new Set<Tally>();
  /** Frames handed over and not yet written, across every stream: the fast path of `flushed` reads only this. */
  #pending = 0;
  #closed = false;

  open(): OutboundStream {
    const tally: Tally = { queued: 0, written: 0, waiters: [] };
    if (!this.#closed) this.#streams.add(tally);
    // A stream ended by `close` (its own or the connection's) counts nothing more.
    const open = () => this.#streams.has(tally);
    return {
      queued: () => {
        if (!open()) return;
        tally.queued += 1;
        this.#pending += 1;
      },
      written: () => {
        if (!open() || tally.written === tally.queued) return;
        tally.written += 1;
        this.#pending -= 1;
        while (tally.waiters[0] !== undefined && tally.waiters[0].until <= tally.written)
          tally.waiters.shift()?.resolve();
      },
      close: () => this.#end(tally),
    };
  }

  /**
   * Resolves once every frame handed over until now is written or its stream has ended; frames handed over
   * later are not waited for, so a busy stream cannot hold a result back. `undefined` when nothing is pending,
   * so a quiet connection's calls pay no extra turn.
   */
  flushed(): Promise<void> | undefined {
    if (this.#pending === 0) return undefined;
    const waits: Array<Promise<void>> = [];
    for (const tally of this.#streams) {
      if (tally.written === tally.queued) continue;
      const until = tally.queued;
      waits.push(new Promise((resolve) => tally.waiters.push({ until, resolve })));
    }
    return Promise.all(waits).then(() => undefined);
  }

  /** The connection ended: nothing more will be written, so no outcome waits any longer. */
  close(): void {
    this.#closed = true;
    for (const tally of [...this.#streams]) this.#end(tally);
  }

  #end(tally: Tally): void {
    if (!this.#streams.delete(tally)) return;
    this.#pending -= tally.queued - tally.written;
    tally.written = tally.queued;
    for (const waiter of tally.waiters.splice(0)) waiter.resolve();
  }
}
