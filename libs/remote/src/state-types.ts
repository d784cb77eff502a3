import type { Context } from '@pi/context';

export type StateListener<T> = (value: T, context: Context) => void;

/** Authoritative latest-value replication: readable at once, and every later change, in order. */
export interface RemoteState<T> {
  readonly value: T;
  /** Increases by one for every change that was delivered; equal values are not changes. */
  readonly revision: number;
  /** Reports the current value at once (under a hydration context), then every change. */
  subscribe(listener: StateListener<T>): () => void;
}

export interface MutableRemoteState<T> extends RemoteState<T> {
  set(value: T, context: Context): void;
}

export type EventListener<E> = (event: E, context: Context) => void;

/** A discriminated event type, as event streams carry. */
export type TypedEvent = { readonly type: string };

/** A projection of host-local events; listeners run in the process that subscribed. */
export interface RemoteEvents<E> {
  subscribe(listener: EventListener<E>): () => void;
  on<K extends (E extends TypedEvent ? E['type'] : never)>(
    type: K,
    listener: EventListener<Extract<E, { type: K }>>,
  ): () => void;
}

export interface MutableRemoteEvents<E> extends RemoteEvents<E> {
  emit(event: E, context: Context): void;
}
