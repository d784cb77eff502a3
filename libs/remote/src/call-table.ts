import type { DeferredAbort } from '@pi/context';

/**
 * The aborts of one connection's calls in flight, by the client's call id. A caller that awaits each call before the
 * next (the common case) has one at a time: that one is kept in two fields, and only calls made while another is in
 * flight go into the `Map` (a string-keyed entry set and deleted costs about 0.3 µs a call on a cold cache).
 */
export class CallTable {
  #soleId: string | undefined;
  #sole: DeferredAbort | undefined;
  readonly #others = new Map<string, DeferredAbort>();

  get size(): number {
    return (this.#soleId === undefined ? 0 : 1) + this.#others.size;
  }

  has(callId: string): boolean {
    return callId === this.#soleId || (this.#others.size > 0 && this.#others.has(callId));
  }

  get(callId: string): DeferredAbort | undefined {
    return callId === this.#soleId ? this.#sole : this.#others.get(callId);
  }

  /** Adds a call; its id must not be in the table (`has`). */
  add(callId: string, abort: DeferredAbort): void {
    if (this.#soleId === undefined) {
      this.#soleId = callId;
      this.#sole = abort;
    } else {
      this.#others.set(callId, abort);
    }
  }

  delete(callId: string): void {
    if (callId === this.#soleId) {
      this.#soleId = undefined;
      this.#sole = undefined;
    } else {
      this.#others.delete(callId);
    }
  }

  /** Every call's abort, in no particular order, as they are now. */
  aborts(): DeferredAbort[] {
    const aborts = [...this.#others.values()];
    if (this.#sole !== undefined) aborts.push(this.#sole);
    return aborts;
  }
}
