import type { OwnerMessage } from '@pi/registry';

/** How many failures the host keeps for diagnostics: the latest ones matter, and memory must stay bounded. */
export const MAX_CALLBACK_FAILURES = 64;

/**
 * Plugin callbacks the host invokes (rebuild listeners, client connect/disconnect, harness event listeners, hooks) run isolated: one that
 * throws must not stop the others, break a rebuild or a connection, or crash the session. What it threw is
 * kept, by plugin, for `diagnostics()`.
 */
export class CallbackFailures {
  readonly #failures: OwnerMessage[] = [];
  readonly #listeners = new Set<(failure: OwnerMessage) => void>();
  #total = 0;

  /** `callback` wrapped so that a throw is recorded against `owner` instead of propagating. */
  guard<A extends unknown[]>(owner: string, what: string, callback: (...args: A) => void): (...args: A) => void {
    return (...args) => {
      try {
        callback(...args);
      } catch (error) {
        this.record(owner, `${what} threw: ${error instanceof Error ? error.message : String(error)}`);
      }
    };
  }

  /** Records a failure the caller isolated itself (a hook that was skipped, one that missed its deadline). */
  record(owner: string, message: string): void {
    const failure = { owner, message };
    this.#total += 1;
    this.#failures.push(failure);
    if (this.#failures.length > MAX_CALLBACK_FAILURES) this.#failures.shift();
    for (const listener of this.#listeners) listener(failure);
  }

  /** Told of every failure as it is recorded (the session's diagnostics service); returns the remover. */
  onRecord(listener: (failure: OwnerMessage) => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /** How many were recorded, those no longer kept included. */
  get total(): number {
    return this.#total;
  }

  list(): readonly OwnerMessage[] {
    return [...this.#failures];
  }
}
