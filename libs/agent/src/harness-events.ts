import { BACKGROUND_CONTEXT, withTelemetryContext, type Context } from '@pi/context';
import type { HarnessEvents } from './harness-types';
import type { HarnessEvent } from '@pi/agent-contract';

type Listener = (event: HarnessEvent, context: Context) => void;

/**
 * Passive fan-out of progress events. A listener cannot intercept or break a run: its throw is contained,
 * and the listeners after it still hear the event.
 */
export class HarnessEventHub implements HarnessEvents {
  // One slot per subscription, so subscribing the same function twice is two subscriptions and each
  // disposer removes exactly its own.
  readonly #slots = new Set<{ listener: Listener }>();
  /**
   * The slots as an event found them, kept until the next subscription or removal: an event reaches the listeners
   * registered when it was emitted, without a copy of the set per event (one per streamed delta).
   */
  #snapshot: ReadonlyArray<{ listener: Listener }> | undefined;

  subscribe(listener: Listener): () => void {
    const slot = { listener };
    this.#slots.add(slot);
    this.#snapshot = undefined;
    return () => {
      if (this.#slots.delete(slot)) this.#snapshot = undefined;
    };
  }

  emit(event: HarnessEvent, context: Context): void {
    this.#snapshot ??= [...this.#slots];
    for (const slot of this.#snapshot) {
      try {
        slot.listener(event, context);
      } catch {
        // Deliberately contained: events are observations, and the durable record is the entries.
      }
    }
  }
}

/**
 * The context listeners receive: the cause's telemetry (so their work joins its trace) and nothing else —
 * never the cause's abort signal, which belongs to the invocation or run that produced the event.
 */
export function eventDeliveryContext(cause: Context): Context {
  return withTelemetryContext(cause.telemetryContext, BACKGROUND_CONTEXT);
}
