import type { Context, TraceCarrier } from '@pi/context';
import { deliveryContext, serialDelivery } from './delivery';
import { ListenerSet } from './listener-set';
import { checkJson, detachJson, type JsonValue } from '@pi/json';
import type { EventListener, MutableRemoteEvents, TypedEvent } from './state-types';
import type { EventProjection, ProjectionKey } from './viewer';

export interface EmittedEvent<E> {
  readonly event: E;
  readonly carrier: TraceCarrier;
}

/** The providing side of an event stream, with the raw feed the exposure layer forwards. */
export interface AuthoritativeEvents<E> extends MutableRemoteEvents<E> {
  observe(observer: (emitted: EmittedEvent<E>) => void): () => void;
  /** What each connection is sent instead of an event (nothing when it returns undefined). */
  readonly projectFor: EventProjection<E> | undefined;
  /** Which connections share one projection of an event (computed and encoded once per key); see `ProjectionKey`. */
  readonly projectionKey: ProjectionKey | undefined;
}

export interface RemoteEventsOptions<E> {
  /** Per-connection projection of each event; local subscribers see every event itself. */
  projectFor?: EventProjection<E>;
  /** With `projectFor`: connections with equal keys share one projection of each event (see `ProjectionKey`). */
  projectionKey?: ProjectionKey;
}

export function createRemoteEvents<E>(options: RemoteEventsOptions<E> = {}): AuthoritativeEvents<E> {
  const listeners = new ListenerSet<Parameters<EventListener<E>>>();
  const observers = new ListenerSet<[EmittedEvent<E>]>();
  const publish = serialDelivery();
  const subscribe = (listener: EventListener<E>) => listeners.add(listener);

  return {
    projectFor: options.projectFor,
    projectionKey: options.projectionKey,
    emit(event: E, context: Context) {
      const result = checkJson(event);
      if (result.isErr())
        throw new TypeError(`Events must be strict JSON: ${result.error.kind} at ${result.error.path}`);
      const emitted = { event: detachJson(event as JsonValue) as E, carrier: context.telemetryContext.inject() };
      publish(() => {
        observers.deliver(emitted);
        if (listeners.size > 0) listeners.deliver(emitted.event, deliveryContext(emitted.carrier));
      });
    },
    subscribe,
    on(type, listener) {
      return subscribe((event, context) => {
        if ((event as unknown as TypedEvent).type === type) listener(event as never, context);
      });
    },
    observe: (observer) => observers.add(observer),
  };
}

export function isAuthoritativeEvents(value: unknown): value is AuthoritativeEvents<JsonValue> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as AuthoritativeEvents<JsonValue>).observe === 'function' &&
    typeof (value as AuthoritativeEvents<JsonValue>).emit === 'function'
  );
}
