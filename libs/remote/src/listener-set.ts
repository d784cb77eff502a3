import { runListener } from './delivery';

/**
 * Subscribed listeners, one entry per `add`: the same function added twice is two subscriptions, and each
 * disposer removes exactly its own. Delivery walks a copy, so a listener may unsubscribe while it runs.
 */
export class ListenerSet<Args extends unknown[]> {
  readonly #entries = new Set<{ readonly listener: (...args: Args) => void }>();

  get size(): number {
    return this.#entries.size;
  }

  add(listener: (...args: Args) => void): () => void {
    const entry = { listener };
    this.#entries.add(entry);
    return () => {
      this.#entries.delete(entry);
    };
  }

  /** Calls every listener in subscription order; one that throws is reported and the rest still run. */
  deliver(...args: Args): void {
    for (const entry of [...this.#entries]) runListener(() => entry.listener(...args));
  }
}
