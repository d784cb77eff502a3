import type { Context } from '@pi/context';

/** Text of one run's deltas, held until the end of the tick, and the context of the first of them. */
interface Held {
  readonly operationId: string;
  text: string;
  readonly source: Context;
}

/** Runs `flush` once the current tick's work is done; `process.nextTick` unless a test injects its own. */
export type EndOfTick = (flush: () => void) => void;

/**
 * Merges the text deltas of a run that arrive in one tick into one. A provider's socket read that holds several
 * stream events (a fast model, or a session that fell behind its model) yields them one after the other in the same
 * tick, and each would be its own event: its own projection, contract check, frame, WebSocket message and update on
 * every client. What is held leaves at the end of the tick (`process.nextTick`: after the tick's promise jobs, before
 * the event loop reads or writes again), where the transport writes the tick's frames in one batch anyway, so no
 * delta waits for a later turn of the loop; a delta alone in its tick leaves alone, as before.
 *
 * The owner calls `flush` before it writes anything else, so nothing it writes overtakes text it has already been
 * given: merging never reorders.
 */
export class TickDeltas {
  readonly #emit: (operationId: string, text: string, source: Context) => void;
  readonly #endOfTick: EndOfTick;
  #held: Held | undefined;
  #scheduled = false;

  constructor(emit: (operationId: string, text: string, source: Context) => void, endOfTick: EndOfTick) {
    this.#emit = emit;
    this.#endOfTick = endOfTick;
  }

  add(operationId: string, text: string, source: Context): void {
    if (this.#held !== undefined && this.#held.operationId !== operationId) this.flush();
    if (this.#held === undefined) this.#held = { operationId, text, source };
    else this.#held.text += text;
    if (this.#scheduled) return;
    this.#scheduled = true;
    this.#endOfTick(() => {
      this.#scheduled = false;
      this.flush();
    });
  }

  /** Emits what is held now, as one delta. */
  flush(): void {
    const held = this.#held;
    if (held === undefined) return;
    this.#held = undefined;
    this.#emit(held.operationId, held.text, held.source);
  }
}
