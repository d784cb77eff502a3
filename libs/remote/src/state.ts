import { BACKGROUND_CONTEXT, type Context, type TraceCarrier } from '@pi/context';
import { deliveryContext, runListener, serialDelivery } from './delivery';
import { ListenerSet } from './listener-set';
import { checkJson, detachJson, jsonEquals, type JsonValue } from '@pi/json';
import type { MutableRemoteState, StateListener } from './state-types';
import type { ProjectionKey, StateProjection } from './viewer';

/** One change of a state cell as the exposure layer forwards it: the value, its revision and its source trace. */
export interface StateChange<T> {
  readonly value: T;
  readonly revision: number;
  readonly carrier: TraceCarrier;
}

/** The providing side of a state cell, with the raw change feed the exposure layer needs. */
export interface AuthoritativeState<T> extends MutableRemoteState<T> {
  observe(observer: (change: StateChange<T>) => void): () => void;
  /** What each connection is sent instead of the value, when the cell is projected per connection. */
  readonly projectFor: StateProjection<T> | undefined;
  /** Which connections share one projection (computed and encoded once per key and change); see `ProjectionKey`. */
  readonly projectionKey: ProjectionKey | undefined;
}

export interface RemoteStateOptions<T = unknown> {
  /** The context the immediate `subscribe` callback runs under; a fresh background context by default. */
  hydrationContext?: () => Context;
  /**
   * Per-connection projection: each watching connection is sent `projectFor(value, viewer)` (for example only the
   * records of the caller's workspace). Local subscribers see the value itself.
   */
  projectFor?: StateProjection<T>;
  /**
   * With `projectFor`: connections whose viewers have equal keys see the same projection, so it is computed once per
   * distinct key and change and every such connection is sent the very same value (encoded once). The key must
   * determine the projection (see `ProjectionKey`); without it the projection is computed per connection.
   */
  projectionKey?: ProjectionKey;
}

export function createRemoteState<T>(initial: T, options: RemoteStateOptions<T> = {}): AuthoritativeState<T> {
  let value = checked(initial);
  let revision = 0;
  const listeners = new ListenerSet<Parameters<StateListener<T>>>();
  const observers = new ListenerSet<[StateChange<T>]>();
  const hydration = options.hydrationContext ?? (() => BACKGROUND_CONTEXT);
  const publish = serialDelivery();

  return {
    projectFor: options.projectFor,
    projectionKey: options.projectionKey,
    get value() {
      return value;
    },
    get revision() {
      return revision;
    },
    set(next: T, context: Context) {
      const detached = checked(next);
      if (jsonEquals(detached as JsonValue, value as JsonValue)) return;
      value = detached;
      revision += 1;
      const change = { value, revision, carrier: context.telemetryContext.inject() };
      publish(() => {
        observers.deliver(change);
        if (listeners.size > 0) listeners.deliver(change.value, deliveryContext(change.carrier));
      });
    },
    subscribe(listener: StateListener<T>) {
      const stop = listeners.add(listener);
      runListener(() => listener(value, hydration()));
      return stop;
    },
    observe(observer) {
      return observers.add(observer);
    },
  };
}

function checked<T>(value: T): T {
  const result = checkJson(value);
  if (result.isErr()) {
    throw new TypeError(`State must be strict JSON: ${result.error.kind} at ${result.error.path}`);
  }
  return detachJson(value as JsonValue) as T;
}

export function isAuthoritativeState(value: unknown): value is AuthoritativeState<JsonValue> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as AuthoritativeState<JsonValue>).observe === 'function' &&
    typeof (value as AuthoritativeState<JsonValue>).set === 'function'
  );
}
