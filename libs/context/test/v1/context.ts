// The context format as copies of this library made it before 2026-12-03 (the brand defined non-enumerable with
// `defineProperty`), kept verbatim but for its import paths so that library-copies.test.ts can bundle it as an
// older copy a plugin might still carry, and check that it and the current copy read each other's contexts.
import type { ContextKey } from '../../src/context-key';
import { DeferredAbort } from '../../src/deferred-abort';
import { ROOT_TELEMETRY } from '../../src/otel-telemetry';
import type { TelemetryContext } from '../../src/telemetry-types';

/** What a call carries besides its arguments: cancellation, the telemetry parent, and typed values. */
export interface Context {
  readonly abortSignal: AbortSignal | undefined;
  readonly telemetryContext: TelemetryContext;
  /** The nearest value set for key, or key.defaultValue when unset. */
  value<T>(key: ContextKey<T>): T;
}

/**
 * One link of the value chain: deriving a context adds a link instead of copying a map. Copies of this library
 * read each other's chains, so this shape is a format: changing it needs a new brand symbol.
 */
interface ValueEntry {
  readonly key: ContextKey<unknown>;
  readonly value: unknown;
  readonly parent: ValueEntry | undefined;
}

/**
 * The brand and the value chain of every context, under a registered symbol so that a context made by another
 * copy of this library (a plugin bundling its own) is recognised here. JSON decoding never creates a
 * symbol-keyed property, so a look-alike decoded from a frame never carries it.
 */
const VALUES: unique symbol = Symbol.for('@pi/context.values.v1');

interface Branded extends Context {
  readonly [VALUES]: ValueEntry | undefined;
}

class ImmutableContext implements Branded {
  readonly telemetryContext: TelemetryContext;
  declare readonly [VALUES]: ValueEntry | undefined;
  /** A deferred abort makes its signal when `abortSignal` is first read (private state, so freezing allows it). */
  readonly #abort: AbortSignal | DeferredAbort | undefined;

  constructor(
    abort: AbortSignal | DeferredAbort | undefined,
    telemetryContext: TelemetryContext,
    values: ValueEntry | undefined,
  ) {
    this.#abort = abort;
    this.telemetryContext = telemetryContext;
    // Not enumerable, so a spread copy of a context does not carry the brand.
    Object.defineProperty(this, VALUES, { value: values });
    Object.freeze(this);
  }

  get abortSignal(): AbortSignal | undefined {
    const abort = this.#abort;
    return abort instanceof DeferredAbort ? abort.signal : abort;
  }

  /** The signal or deferred abort as given, so a derived context defers as this one does. */
  get abortSource(): AbortSignal | DeferredAbort | undefined {
    return this.#abort;
  }

  /** True only for objects this class constructed (every one is frozen and owns the brand). */
  static made(value: object): boolean {
    return #abort in value;
  }

  value<T>(key: ContextKey<T>): T {
    for (let entry = this[VALUES]; entry !== undefined; entry = entry.parent) {
      // The key was typed T when stored, and keys compare by identity, so the value is a T.
      if (entry.key === key) return entry.value as T;
    }
    return key.defaultValue;
  }
}

function valuesOf(context: Context): ValueEntry | undefined {
  return isContext(context) ? (context as Branded)[VALUES] : undefined;
}

/** No signal, root telemetry, no values: the start of every context chain. */
export const BACKGROUND_CONTEXT: Context = new ImmutableContext(undefined, ROOT_TELEMETRY, undefined);

/** Aborts when either signal or the context's own signal aborts, keeping whichever reason came first. */
export function withAbortSignal(signal: AbortSignal, context: Context): Context {
  const parentSignal = context.abortSignal;
  const combined =
    parentSignal === undefined || parentSignal === signal ? signal : AbortSignal.any([parentSignal, signal]);
  return new ImmutableContext(combined, context.telemetryContext, valuesOf(context));
}

/** Later spans started from the result's telemetryContext become children of telemetry (e.g. a TelemetrySpan). */
export function withTelemetryContext(telemetry: TelemetryContext, context: Context): Context {
  return new ImmutableContext(abortSourceOf(context), telemetry, valuesOf(context));
}

/**
 * A context cancelled by `abort` (and by the context's own signal), whose AbortSignal is made only if read: for a
 * server's per-call context, where most calls never look at it. `telemetry` replaces the parent's in the same step.
 */
export function withDeferredAbort(
  abort: DeferredAbort,
  context: Context,
  telemetry: TelemetryContext = context.telemetryContext,
): Context {
  return new ImmutableContext(abort, telemetry, valuesOf(context));
}

function abortSourceOf(context: Context): AbortSignal | DeferredAbort | undefined {
  return context instanceof ImmutableContext ? context.abortSource : context.abortSignal;
}

export function withContextValue<T>(key: ContextKey<T>, value: T, context: Context): Context {
  const entry: ValueEntry = { key: key as ContextKey<unknown>, value, parent: valuesOf(context) };
  return new ImmutableContext(abortSourceOf(context), context.telemetryContext, Object.freeze(entry));
}

/**
 * Brand check: true for contexts made by any copy of this library (they are frozen and own the brand symbol),
 * never for look-alike plain objects, spread copies or objects inheriting from a context.
 */
export function isContext(value: unknown): value is Context {
  if (typeof value !== 'object' || value === null) return false;
  // This copy's own contexts, the common case, without the checks that recognise another copy's.
  if (ImmutableContext.made(value)) return true;
  return (
    Object.hasOwn(value, VALUES) && Object.isFrozen(value) && typeof (value as Partial<Context>).value === 'function'
  );
}
