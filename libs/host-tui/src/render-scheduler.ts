/** How often a busy screen repaints at most (~60 fps); an idle one repaints at once. */
export const FRAME_MS = 16;

/**
 * One render per frame, however many changes ask for one: a burst of 500 stream deltas costs one paint.
 * The clock and timers are injectable so tests count frames without waiting.
 */
export class RenderScheduler {
  readonly #render: () => void;
  readonly #now: () => number;
  #scheduled: ReturnType<typeof setTimeout> | undefined;
  #lastFrame = Number.NEGATIVE_INFINITY;
  #stopped = false;
  frames = 0;

  constructor(render: () => void, now: () => number = () => performance.now()) {
    this.#render = render;
    this.#now = now;
  }

  request(): void {
    if (this.#stopped || this.#scheduled !== undefined) return;
    const wait = Math.max(0, this.#lastFrame + FRAME_MS - this.#now());
    this.#scheduled = setTimeout(() => this.flush(), wait);
  }

  /** Paints now (also what a scheduled frame does). */
  flush(): void {
    clearTimeout(this.#scheduled);
    this.#scheduled = undefined;
    if (this.#stopped) return;
    this.#lastFrame = this.#now();
    this.frames += 1;
    this.#render();
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#scheduled);
  }
}
