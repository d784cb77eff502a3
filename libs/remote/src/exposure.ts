import type { Context } from '@pi/context';
import type { z } from 'zod';
import type { RemoteEvents, RemoteState } from './state-types';

/** A zod schema whose output is exactly the contract type: declared once, beside the token. */
export type Schema<T> = z.ZodType<T>;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyFunction = (...args: any[]) => any;

/** Members that are remote methods: functions returning a promise, with a trailing Context. */
export type MethodKeys<T> = { [K in keyof T]-?: T[K] extends AnyFunction ? K : never }[keyof T] & string;
export type StateKeys<T> = { [K in keyof T]-?: T[K] extends RemoteState<infer _> ? K : never }[keyof T] & string;
export type EventKeys<T> = { [K in keyof T]-?: T[K] extends RemoteEvents<infer _> ? K : never }[keyof T] & string;

/** The JSON arguments of a method: every parameter before the trailing Context. */
export type MethodArgs<F> = F extends (...args: [...infer A, Context]) => unknown ? A : never;
export type MethodResult<F> = F extends (...args: never[]) => Promise<infer R> ? R : never;
export type StateValue<S> = S extends RemoteState<infer V> ? V : never;
export type EventValue<E> = E extends RemoteEvents<infer V> ? V : never;

/** A result that crosses as a reference to a live object on the providing host. */
export interface RemoteResult<R> {
  readonly kind: 'remote';
  readonly exposure: ObjectExposure<R>;
}

export interface MethodExposure<A extends unknown[], R> {
  /** One schema per JSON argument; the Context always follows the last one. */
  readonly args: { readonly [I in keyof A]: Schema<A[I]> };
  readonly result: Schema<R> | RemoteResult<R>;
}

/**
 * The trusted allowlist of what a peer may reach on an object: every method with its argument and
 * result schemas, every replicated state cell and every event stream. The mapped types make the
 * TypeScript interface the source of truth: a member missing here, or a schema of the wrong type,
 * does not compile.
 */
export interface ObjectExposure<T> {
  readonly methods: { readonly [K in MethodKeys<T>]: MethodExposure<MethodArgs<T[K]>, MethodResult<T[K]>> };
  readonly state: { readonly [K in StateKeys<T>]: Schema<StateValue<T[K]>> };
  readonly events: { readonly [K in EventKeys<T>]: Schema<EventValue<T[K]>> };
}

/** Marks a method result as a remote reference described by its own exposure. */
export function remote<R>(exposure: ObjectExposure<R>): RemoteResult<R> {
  return { kind: 'remote', exposure };
}

export function isRemoteResult(value: unknown): value is RemoteResult<unknown> {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'remote';
}

/** An exposure with its types erased, as the generic machinery walks it. */
export interface AnyExposure {
  readonly methods: Readonly<
    Record<
      string,
      { readonly args: readonly Schema<unknown>[]; readonly result: Schema<unknown> | RemoteResult<unknown> }
    >
  >;
  readonly state: Readonly<Record<string, Schema<unknown>>>;
  readonly events: Readonly<Record<string, Schema<unknown>>>;
}

export function eraseExposure<T>(exposure: ObjectExposure<T>): AnyExposure {
  return exposure as unknown as AnyExposure;
}

/** Whether a subscription is needed to consume the object: only when it replicates state or events. */
export function hasStreams(exposure: AnyExposure): boolean {
  return Object.keys(exposure.state).length > 0 || Object.keys(exposure.events).length > 0;
}
