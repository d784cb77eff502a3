import { BACKGROUND_CONTEXT, type Context, type TraceCarrier } from '@pi/context';
import { deliveryContext, runListener } from './delivery';
import { freezeJson, type JsonValue } from '@pi/json';
import { ListenerSet } from './listener-set';
import type { EventListener, RemoteEvents, RemoteState, StateListener, TypedEvent } from './state-types';

/**
 * Replicated values are frozen, as on the providing side, so no listener can change what another sees. They arrive
 * freshly decoded from a frame, so freezing in place is enough: nobody else holds them.
 */
function detached<T>(value: T): T {
  return freezeJson(value as JsonValue) as T;
}

/** A client-side copy of one remote state cell: synchronously readable, changed only by its connection. */
export class ReplicaState<T> implements RemoteState<T> {
  #value: T;
  #revision: number;
  readonly #listeners = new ListenerSet<Parameters<StateListener<T>>>();
  readonly #hydration: () => Context;

  constructor(value: T, revision: number, hydration: () => Context = () => BACKGROUND_CONTEXT) {
    this.#value = detached(value);
    this.#revision = revision;
    this.#hydration = hydration;
  }

  get value(): T {
    return this.#value;
  }

  get revision(): number {
    return this.#revision;
  }

  subscribe(listener: StateListener<T>): () => void {
    const stop = this.#listeners.add(listener);
    runListener(() => listener(this.#value, this.#hydration()));
    return stop;
  }

  /** An update in order: applied and delivered under the source's reconstructed context. */
  apply(value: T, revision: number, carrier: TraceCarrier): void {
    this.#value = detached(value);
    this.#revision = revision;
    this.#listeners.deliver(this.#value, deliveryContext(carrier));
  }

  /** A fresh snapshot after (re)connecting replaces whatever was held; listeners hear only a real change. */
  replace(value: T, revision: number, changed: boolean): void {
    this.#value = detached(value);
    this.#revision = revision;
    if (changed) this.#listeners.deliver(this.#value, this.#hydration());
  }
}

/** The client-side face of a remote event stream; listeners run in this process. */
export class ReplicaEvents<E> implements RemoteEvents<E> {
  readonly #listeners = new ListenerSet<Parameters<EventListener<E>>>();

  subscribe(listener: EventListener<E>): () => void {
    return this.#listeners.add(listener);
  }

  on<K extends (E extends TypedEvent ? E['type'] : never)>(
    type: K,
    listener: EventListener<Extract<E, { type: K }>>,
  ): () => void {
    return this.subscribe((event, context) => {
      if ((event as TypedEvent).type === type) listener(event as Extract<E, { type: K }>, context);
    });
  }

  deliver(event: E, carrier: TraceCarrier): void {
    if (this.#listeners.size === 0) return;
    this.#listeners.deliver(detached(event), deliveryContext(carrier));
  }
}
