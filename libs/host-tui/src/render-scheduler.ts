/** How often a busy screen repaints at most (~60 fps); an idle one repaints at once. */
export const FRAME_MS = 16;
/**
 * How often it repaints at most while text streams onto it (~30 fps): a frame then shows two pieces of a model's
 * answer instead of one, for the same layout, draw and write.
 */
export const STREAM_FRAME_MS = 32;

/** The event loop as the scheduler uses it; injectable so tests order frames without waiting. */
export interface FrameTiming {
  now(): number;
  /** Runs `run` after `ms`; answers a cancel. */
  after(ms: number, run: () => void): () => void;
  /** Runs `run` once the input that is ready now has been handled (Node's check phase); answers a cancel. */
  afterInput(run: () => void): () => void;
}

export const nodeFrameTiming: FrameTiming = {
  now: () => performance.now(),
  after(ms, run) {
    const timer = setTimeout(run, ms);
    return () => clearTimeout(timer);
  },
  afterInput(run) {
    const immediate = setImmediate(run);
    return () => clearImmediate(immediate);
  },
};

/**
 * One render per frame, however many changes ask for one: a burst of 500 stream deltas costs one paint.
 *
 * A frame is painted after the input that is ready when it is due, not before it: an idle screen paints once the
 * current batch of input is handled (a key, a delta), and a busy one waits out the frame interval and then does
 * the same. A frame painted straight from its timer runs before that turn's input (Node runs timers first), so the
 * last delta of a stream, already read from the socket, waited a whole extra frame.
 *
 * While a stream is marked (`streaming()`), frames are paced at `STREAM_FRAME_MS`; a key still paints at once
 * (`expedite`), and the frame waiting when the last stream ends is moved back to the usual pace, so the end of an
 * answer is on screen as soon as before.
 */
export class RenderScheduler {
  readonly #render: () => void;
  readonly #timing: FrameTiming;
  /** The frame asked for: waiting out the frame interval, or for the input at hand to be handled. */
  #pending: { readonly waits: 'interval' | 'input'; readonly cancel: () => void } | undefined;
  #lastFrame = Number.NEGATIVE_INFINITY;
  #stopped = false;
  #streams = 0;
  frames = 0;

  constructor(render: () => void, timing: FrameTiming = nodeFrameTiming) {
    this.#render = render;
    this.#timing = timing;
  }

  /** Streams marked and not yet ended. */
  get streams(): number {
    return this.#streams;
  }

  request(): void {
    if (this.#stopped || this.#pending !== undefined) return;
    const wait = this.#lastFrame + (this.#streams > 0 ? STREAM_FRAME_MS : FRAME_MS) - this.#timing.now();
    if (wait <= 0) this.#afterInput();
    else this.#pending = { waits: 'interval', cancel: this.#timing.after(wait, () => this.#afterInput()) };
  }

  /**
   * Marks text streaming onto the screen until the answered function is called (once; later calls do nothing).
   * Streams may overlap: the usual pace returns when the last one ends.
   */
  streaming(): () => void {
    this.#streams += 1;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.#streams -= 1;
      if (this.#streams > 0 || this.#pending?.waits !== 'interval') return;
      // The frame waiting now may hold the stream's last words: it is due at the usual pace.
      this.#pending.cancel();
      this.#pending = undefined;
      this.request();
    };
  }

  /**
   * Paints the frame asked for once the input at hand is handled, without waiting out the frame interval: for what
   * the user typed. A person types far slower than 60 keys a second, so this adds few frames to a streaming screen.
   */
  expedite(): void {
    if (this.#stopped || this.#pending?.waits !== 'interval') return;
    this.#pending.cancel();
    this.#afterInput();
  }

  /** Paints now (also what a scheduled frame does). */
  flush(): void {
    this.#pending?.cancel();
    this.#pending = undefined;
    if (this.#stopped) return;
    this.#lastFrame = this.#timing.now();
    this.frames += 1;
    this.#render();
  }

  stop(): void {
    this.#stopped = true;
    this.#pending?.cancel();
    this.#pending = undefined;
  }

  #afterInput(): void {
    this.#pending = { waits: 'input', cancel: this.#timing.afterInput(() => this.flush()) };
  }
}
