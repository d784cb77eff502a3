import type { ContextKey } from './context-key';
import { ROOT_TELEMETRY } from './otel-telemetry';
import type { TelemetryContext } from './telemetry-types';

/** What a call carries besides its arguments: cancellation, the telemetry parent, and typed values. */
export interface Context {
  readonly abortSignal: AbortSignal | undefined;
  readonly telemetryContext: TelemetryContext;
  /** The nearest value set for key, or key.defaultValue when unset. */
  value<T>(key: ContextKey<T>): T;
}

/** One link of the value chain: deriving a context adds a link instead of copying a map. */
interface ValueEntry {
  readonly key: ContextKey<unknown>;
  readonly value: unknown;
  readonly parent: ValueEntry | undefined;
}

class ImmutableContext implements Context {
  readonly abortSignal: AbortSignal | undefined;
  readonly telemetryContext: TelemetryContext;
  readonly #values: ValueEntry | undefined;

  constructor(
    abortSignal: AbortSignal | undefined,
    telemetryContext: TelemetryContext,
    values: ValueEntry | undefined,
  ) {
    this.abortSignal = abortSignal;
    this.telemetryContext = telemetryContext;
    this.#values = values;
    Object.freeze(this);
  }

  value<T>(key: ContextKey<T>): T {
    for (let entry = this.#values; entry !== undefined; entry = entry.parent) {
      // The key was typed T when stored, and keys compare by identity, so the value is a T.
      if (entry.key === key) return entry.value as T;
    }
    return key.defaultValue;
  }

  static values(context: Context): ValueEntry | undefined {
    return context instanceof ImmutableContext ? context.#values : undefined;
  }

  static isBranded(value: unknown): value is ImmutableContext {
    return typeof value === 'object' && value !== null && #values in value;
  }
}

/** No signal, root telemetry, no values: the start of every context chain. */
export const BACKGROUND_CONTEXT: Context = new ImmutableContext(undefined, ROOT_TELEMETRY, undefined);

/** Aborts when either signal or the context's own signal aborts, keeping whichever reason came first. */
export function withAbortSignal(signal: AbortSignal, context: Context): Context {
  const parentSignal = context.abortSignal;
  const combined =
    parentSignal === undefined || parentSignal === signal ? signal : AbortSignal.any([parentSignal, signal]);
  return new ImmutableContext(combined, context.telemetryContext, ImmutableContext.values(context));
}

/** Later spans started from the result's telemetryContext become children of telemetry (e.g. a TelemetrySpan). */
export function withTelemetryContext(telemetry: TelemetryContext, context: Context): Context {
  return new ImmutableContext(context.abortSignal, telemetry, ImmutableContext.values(context));
}

export function withContextValue<T>(key: ContextKey<T>, value: T, context: Context): Context {
  const entry: ValueEntry = { key: key as ContextKey<unknown>, value, parent: ImmutableContext.values(context) };
  return new ImmutableContext(context.abortSignal, context.telemetryContext, Object.freeze(entry));
}

/** Brand check: true only for contexts made by this module, never for look-alike plain objects. */
export function isContext(value: unknown): value is Context {
  return ImmutableContext.isBranded(value);
}
