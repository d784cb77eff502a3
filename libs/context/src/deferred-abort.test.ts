import { describe, expect, it } from 'vitest';
import {
  BACKGROUND_CONTEXT,
  withAbortSignal,
  withContextValue,
  withDeferredAbort,
  withTelemetryContext,
} from './context';
import { createContextKey } from './context-key';
import { DeferredAbort } from './deferred-abort';
import { ROOT_TELEMETRY } from './otel-telemetry';

describe('DeferredAbort', () => {
  it('aborts without a signal ever being made', () => {
    const abort = new DeferredAbort();
    expect(abort.aborted).toBe(false);
    abort.abort('stop');
    expect(abort.aborted).toBe(true);
  });

  it('a signal read after the abort is already aborted, with the first reason', () => {
    const abort = new DeferredAbort();
    abort.abort('first');
    abort.abort('second');
    expect(abort.signal.aborted).toBe(true);
    expect(abort.signal.reason).toBe('first');
  });

  it('a signal read before the abort fires its abort event once, and is the same signal on every read', () => {
    const abort = new DeferredAbort();
    const signal = abort.signal;
    const heard: unknown[] = [];
    signal.addEventListener('abort', () => heard.push(signal.reason));
    abort.abort('now');
    expect(heard).toEqual(['now']);
    expect(abort.signal).toBe(signal);
  });

  it('follows its parent signal too, keeping whichever reason came first', () => {
    const parent = new AbortController();
    const abort = new DeferredAbort(parent.signal);
    parent.abort('parent first');
    expect(abort.aborted).toBe(true);
    abort.abort('own');
    expect(abort.signal.reason).toBe('parent first');
  });
});

describe('withDeferredAbort', () => {
  const KEY = createContextKey<string>('test.deferred', 'none');

  it('gives the context a signal cancelled by the deferred abort, made when read', () => {
    const abort = new DeferredAbort();
    const context = withDeferredAbort(abort, withContextValue(KEY, 'kept', BACKGROUND_CONTEXT));
    expect(context.value(KEY)).toBe('kept');
    abort.abort('cancelled');
    expect(context.abortSignal?.aborted).toBe(true);
    expect(context.abortSignal?.reason).toBe('cancelled');
  });

  it('contexts derived from it share the one signal', () => {
    const abort = new DeferredAbort();
    const context = withDeferredAbort(abort, BACKGROUND_CONTEXT);
    const derived = withTelemetryContext(ROOT_TELEMETRY, withContextValue(KEY, 'x', context));
    expect(derived.abortSignal).toBe(context.abortSignal);
    expect(Object.isFrozen(derived)).toBe(true);
  });

  it('a signal added below it combines with the deferred one', () => {
    const abort = new DeferredAbort();
    const inner = new AbortController();
    const context = withAbortSignal(inner.signal, withDeferredAbort(abort, BACKGROUND_CONTEXT));
    abort.abort('outer');
    expect(context.abortSignal?.aborted).toBe(true);
    expect(context.abortSignal?.reason).toBe('outer');
  });
});
