/** How long a model may send nothing before the run says it is waiting on it (clients then count the seconds). */
export const DEFAULT_MODEL_WAIT_NOTICE_MS = 5_000;

/**
 * Watches one model request for silence. Once nothing came for `noticeMs` it reports the silence (once, not per
 * second: clients count on with their own clock), and reports its end when the model speaks again or the request
 * ends. One timer per silence, not per event: an event only notes the time.
 */
export class ModelSilence {
  readonly #noticeMs: number;
  readonly #report: (silentMs: number | null) => void;
  readonly #now: () => number;
  #lastHeard: number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #reported = false;

  constructor(
    noticeMs: number,
    report: (silentMs: number | null) => void,
    now: () => number = () => performance.now(),
  ) {
    this.#noticeMs = noticeMs;
    this.#report = report;
    this.#now = now;
    this.#lastHeard = now();
    this.#arm(noticeMs);
  }

  /** The model sent something. */
  heard(): void {
    this.#lastHeard = this.#now();
    if (!this.#reported) return;
    this.#reported = false;
    this.#report(null);
    this.#arm(this.#noticeMs);
  }

  /** The request ended (answered, failed or aborted). */
  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#reported) this.#report(null);
    this.#reported = false;
  }

  #arm(ms: number): void {
    this.#timer = setTimeout(() => this.#check(), ms);
    this.#timer.unref?.();
  }

  #check(): void {
    const silent = this.#now() - this.#lastHeard;
    if (silent < this.#noticeMs) return this.#arm(this.#noticeMs - silent);
    this.#timer = undefined;
    this.#reported = true;
    this.#report(Math.round(silent));
  }
}
