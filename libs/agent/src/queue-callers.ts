import type { TelemetryContext } from '@pi/context';

/**
 * The span of the call that queued each waiting item, so the run that takes it can link to it. In memory only: the
 * runs of a queue restored from the session file have no links.
 */
export class QueueCallers {
  readonly #byItem = new Map<string, TelemetryContext>();

  remember(itemId: string, caller: TelemetryContext): void {
    if (caller.spanId !== undefined) this.#byItem.set(itemId, caller);
  }

  /** The callers of `taken`; those of items no longer `waiting` (withdrawn, or taken) are forgotten. */
  take(taken: readonly { id: string }[], waiting: readonly { id: string }[]): TelemetryContext[] {
    const callers = taken.flatMap((item) => this.#byItem.get(item.id) ?? []);
    const still = new Set(waiting.map((item) => item.id));
    for (const id of this.#byItem.keys()) if (!still.has(id)) this.#byItem.delete(id);
    return callers;
  }
}
