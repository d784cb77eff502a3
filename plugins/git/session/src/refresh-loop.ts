export interface RefreshLoopOptions {
  /** Quiet time after the last request before a check runs. */
  readonly debounceMs: number;
  /** The longest a request waits while requests keep coming (a build writing files for minutes). */
  readonly maxDelayMs: number;
  /** One check; never two at once. It should not throw (a throw is treated as a finished check). */
  readonly check: (signal: AbortSignal) => Promise<void>;
}

/**
 * When checks run: debounced requests from watchers and tool runs, and `now()` for callers that wait for a
 * result. Checks never overlap; a request during a check runs one more check after it, so a change made
 * while git was reading is never missed. `dispose` aborts the running check and runs no other.
 */
export class RefreshLoop {
  private timer: NodeJS.Timeout | undefined;
  private firstRequestAt: number | undefined;
  private running = false;
  private again = false;
  /** Waiters for the check that starts next (they asked while another was running or before any). */
  private waiters: Array<() => void> = [];
  /** Waiters for the check that is running. */
  private current: Array<() => void> = [];
  private readonly lifetime = new AbortController();

  constructor(private readonly options: RefreshLoopOptions) {}

  /** Asks for a check soon: after `debounceMs` of quiet, and at most `maxDelayMs` after the first request. */
  schedule(): void {
    if (this.lifetime.signal.aborted) return;
    const now = Date.now();
    this.firstRequestAt ??= now;
    const delay = Math.min(this.options.debounceMs, this.firstRequestAt + this.options.maxDelayMs - now);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.start(), Math.max(0, delay));
    this.timer.unref();
  }

  /** Runs a check as soon as none is running; resolves once a check that started after this call finished. */
  now(): Promise<void> {
    if (this.lifetime.signal.aborted) return Promise.resolve();
    const done = new Promise<void>((resolve) => this.waiters.push(resolve));
    this.start();
    return done;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.lifetime.abort();
    for (const resolve of [...this.current.splice(0), ...this.waiters.splice(0)]) resolve();
  }

  private start(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.firstRequestAt = undefined;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.lifetime.signal.aborted) return;
    this.running = true;
    this.current = this.waiters.splice(0);
    void this.options
      .check(this.lifetime.signal)
      .catch(() => undefined)
      .then(() => {
        this.running = false;
        for (const resolve of this.current.splice(0)) resolve();
        if (this.again) {
          this.again = false;
          this.start();
        } else if (this.waiters.length > 0) {
          this.start();
        }
      });
  }
}
