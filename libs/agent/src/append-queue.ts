/**
 * Runs writes one at a time, in the order they were enqueued. A failed write does not stop the ones after it:
 * the session file decides what each may do (it refuses those that followed a failure, and cuts back a torn
 * tail before the next).
 */
export class AppendQueue {
  #tail: Promise<void> = Promise.resolve();
  #closedBecause: string | null = null;

  enqueue(write: () => Promise<void>): Promise<void> {
    if (this.#closedBecause !== null) return Promise.reject(new Error(this.#closedBecause));
    const run = this.#tail.then(write);
    // The tail only orders later writes; each caller observes its own write's failure through `run`.
    this.#tail = run.catch(() => undefined);
    return run;
  }

  /** Refuses new writes from now on and resolves once the ones already enqueued have finished. */
  close(reason: string): Promise<void> {
    this.#closedBecause ??= reason;
    return this.#tail;
  }
}
