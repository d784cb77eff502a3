import type { SessionStatus } from '@pi/plugin-api';

/** What the coordinator knows of one running session that decides whether it is idle. */
interface Watched {
  status: SessionStatus;
  /** Undefined until the session says (one that never says is never stopped). */
  busy: boolean | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/**
 * Stops session processes idle for `idleMs`: status `idle` (connected upstream, no presentation attached) and not
 * busy by its own last report (no run, nothing queued). The period runs from the moment both became true, as the
 * coordinator heard it; any attach or run starts it over. `stop` is the coordinator's graceful stop; the record
 * stays (closed) and the next resume starts the session again (docs/decisions.md, "Idle session processes").
 */
export class IdleStops {
  readonly #idleMs: number;
  readonly #stop: (sessionId: string) => void;
  readonly #statusOf: (sessionId: string) => SessionStatus;
  readonly #watched = new Map<string, Watched>();

  /**
   * `idleMs` 0 (or less) stops nothing. `statusOf` is the process manager's status of a session the first time it
   * reports (its later changes come through `status`).
   */
  constructor(idleMs: number, stop: (sessionId: string) => void, statusOf: (sessionId: string) => SessionStatus) {
    this.#idleMs = idleMs;
    this.#stop = stop;
    this.#statusOf = statusOf;
  }

  /** A status change of the session's process; `closed` forgets it (a new process reports afresh). */
  status(sessionId: string, status: SessionStatus): void {
    if (status === 'closed') return this.#forget(sessionId);
    this.#watch(sessionId).status = status;
    this.#decide(sessionId);
  }

  /** What the session last said of its own work. */
  busy(sessionId: string, busy: boolean | undefined): void {
    this.#watch(sessionId).busy = busy;
    this.#decide(sessionId);
  }

  /** Whether the session's idle period is running now (for tests and diagnostics). */
  counting(sessionId: string): boolean {
    return this.#watched.get(sessionId)?.timer !== undefined;
  }

  close(): void {
    for (const sessionId of [...this.#watched.keys()]) this.#forget(sessionId);
  }

  #watch(sessionId: string): Watched {
    let watched = this.#watched.get(sessionId);
    if (watched === undefined) {
      watched = { status: this.#statusOf(sessionId), busy: undefined, timer: undefined };
      this.#watched.set(sessionId, watched);
    }
    return watched;
  }

  #forget(sessionId: string): void {
    clearTimeout(this.#watched.get(sessionId)?.timer);
    this.#watched.delete(sessionId);
  }

  #decide(sessionId: string): void {
    const watched = this.#watched.get(sessionId);
    if (watched === undefined) return;
    const idle = this.#idleMs > 0 && watched.status === 'idle' && watched.busy === false;
    if (!idle) {
      clearTimeout(watched.timer);
      watched.timer = undefined;
      return;
    }
    // Already counting since it became idle: a repeated report does not start the period over.
    if (watched.timer !== undefined) return;
    watched.timer = setTimeout(() => {
      watched.timer = undefined;
      if (this.#watched.get(sessionId) === watched) this.#stop(sessionId);
    }, this.#idleMs);
    watched.timer.unref?.();
  }
}
