import { BACKGROUND_CONTEXT, type Context } from '@pi/context';
import { deliveryContext, runListener } from './delivery';
import type { EventListener, RemoteEvents, RemoteState, StateListener, TypedEvent } from './state-types';
import type { TraceCarrier } from '@pi/context';

/** A client-side copy of one remote state cell: synchronously readable, changed only by its connection. */
export class ReplicaState<T> implements RemoteState<T> {
  #value: T;
  #revision: number;
  readonly #listeners = new Set<StateListener<T>>();
  readonly #hydration: () => Context;

  constructor(value: T, revision: number, hydration: () => Context = () => BACKGROUND_CONTEXT) {
    this.#value = value;
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
    this.#listeners.add(listener);
    runListener(() => listener(this.#value, this.#hydration()));
    return () => this.#listeners.delete(listener);
  }

  /** An update in order: applied and delivered under the source's reconstructed context. */
  apply(value: T, revision: number, carrier: TraceCarrier): void {
    this.#value = value;
    this.#revision = revision;
    this.#deliver(deliveryContext(carrier));
  }

  /** A fresh snapshot after (re)connecting replaces whatever was held; listeners hear only a real change. */
  replace(value: T, revision: number, changed: boolean): void {
    this.#value = value;
    this.#revision = revision;
    if (changed) this.#deliver(this.#hydration());
  }

  #deliver(context: Context): void {
    for (const listener of [...this.#listeners]) runListener(() => listener(this.#value, context));
  }
}

/** The client-side face of a remote event stream; listeners run in this process. */
export class ReplicaEvents<E> implements RemoteEvents<E> {
  readonly #listeners = new Set<EventListener<E>>();

  subscribe(listener: EventListener<E>): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  on<K extends E extends TypedEvent ? E['type'] : never>(type: K, listener: EventListener<Extract<E, { type: K }>>): () => void {
    return this.subscribe((event, context) => {
      if ((event as TypedEvent).type === type) listener(event as Extract<E, { type: K }>, context);
    });
  }

  deliver(event: E, carrier: TraceCarrier): void {
    if (this.#listeners.size === 0) return;
    const context = deliveryContext(carrier);
    for (const listener of [...this.#listeners]) runListener(() => listener(event, context));
  }
}
