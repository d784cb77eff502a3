/**
 * Runs writes one at a time, in the order they were enqueued. The first failure poisons the queue: a
 * write that failed part-way may have left a torn line, and anything appended after it would turn that
 * torn (recoverable) last line into corruption in the middle of the file.
 */
export class AppendQueue {
  #tail: Promise<void> = Promise.resolve();
  #failure: Error | null = null;
  #closedBecause: string | null = null;

  enqueue(write: () => Promise<void>): Promise<void> {
    if (this.#closedBecause !== null) return Promise.reject(new Error(this.#closedBecause));
    const run = this.#tail.then(() => {
      if (this.#failure !== null)
        throw new Error(`an earlier write failed: ${this.#failure.message}`, { cause: this.#failure });
      return write().catch((error: unknown) => {
        this.#failure = error instanceof Error ? error : new Error(String(error));
        throw error;
      });
    });
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
