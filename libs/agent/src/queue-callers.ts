import type { TelemetryContext } from '@pi/context';

interface Caller {
  readonly telemetry: TelemetryContext;
  readonly originator: string | undefined;
}

/**
 * Who queued each waiting item: the span of the call, so the run that takes it can link to it, and the client that
 * sent it, the run's originator. In memory only: the runs of a queue restored from the session file have neither.
 */
export class QueueCallers {
  readonly #byItem = new Map<string, Caller>();

  remember(itemId: string, telemetry: TelemetryContext, originator: string | undefined): void {
    if (telemetry.spanId !== undefined || originator !== undefined) this.#byItem.set(itemId, { telemetry, originator });
  }

  /** The client that sent the first of `items`, the run they start: that run's originator. */
  originatorOf(items: readonly { id: string }[]): string | null {
    const first = items[0];
    return (first === undefined ? undefined : this.#byItem.get(first.id)?.originator) ?? null;
  }

  /** The callers of `taken`; those of items no longer `waiting` (withdrawn, or taken) are forgotten. */
  take(taken: readonly { id: string }[], waiting: readonly { id: string }[]): TelemetryContext[] {
    const callers = taken.flatMap((item) => {
      const telemetry = this.#byItem.get(item.id)?.telemetry;
      return telemetry?.spanId === undefined ? [] : [telemetry];
    });
    const still = new Set(waiting.map((item) => item.id));
    for (const id of this.#byItem.keys()) if (!still.has(id)) this.#byItem.delete(id);
    return callers;
  }
}
