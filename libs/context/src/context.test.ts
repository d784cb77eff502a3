import { describe, expect, it } from 'vitest';
import { createContextKey } from './context-key';
import { BACKGROUND_CONTEXT, isContext, withAbortSignal, withContextValue, withTelemetryContext } from './context';
import { extractTelemetryContext } from './extract-telemetry-context';
import { ROOT_TELEMETRY } from './otel-telemetry';

const CLIENT_ID = createContextKey<string | undefined>('clientId', undefined);
const RETRIES = createContextKey('retries', 3);

describe('context values', () => {
  it('returns the key default when the value was never set', () => {
    expect(BACKGROUND_CONTEXT.value(RETRIES)).toBe(3);
    expect(BACKGROUND_CONTEXT.value(CLIENT_ID)).toBeUndefined();
  });

  it('returns the nearest value set for a key and leaves the parent unchanged', () => {
    const parent = withContextValue(RETRIES, 5, BACKGROUND_CONTEXT);
    const child = withContextValue(RETRIES, 7, withContextValue(CLIENT_ID, 'alice', parent));
    expect(child.value(RETRIES)).toBe(7);
    expect(child.value(CLIENT_ID)).toBe('alice');
    expect(parent.value(RETRIES)).toBe(5);
    expect(parent.value(CLIENT_ID)).toBeUndefined();
  });

  it('treats two keys with the same name as different keys', () => {
    const other = createContextKey('retries', 0);
    const context = withContextValue(RETRIES, 9, BACKGROUND_CONTEXT);
    expect(context.value(other)).toBe(0);
  });

  it('keeps values when the signal or telemetry is replaced', () => {
    const withValue = withContextValue(CLIENT_ID, 'bob', BACKGROUND_CONTEXT);
    const derived = withTelemetryContext(ROOT_TELEMETRY, withAbortSignal(new AbortController().signal, withValue));
    expect(derived.value(CLIENT_ID)).toBe('bob');
  });

  it('cannot be mutated', () => {
    const context = withContextValue(CLIENT_ID, 'carol', BACKGROUND_CONTEXT);
    expect(Object.isFrozen(context)).toBe(true);
    expect(Object.isFrozen(CLIENT_ID)).toBe(true);
    expect(() => {
      (context as { abortSignal: AbortSignal | undefined }).abortSignal = new AbortController().signal;
    }).toThrow(TypeError);
  });

  it('starts with no signal and root telemetry', () => {
    expect(BACKGROUND_CONTEXT.abortSignal).toBeUndefined();
    expect(BACKGROUND_CONTEXT.telemetryContext).toBe(ROOT_TELEMETRY);
  });

  it('replaces telemetry without touching the parent', () => {
    const telemetry = extractTelemetryContext({ traceparent: `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01` });
    const context = withTelemetryContext(telemetry, BACKGROUND_CONTEXT);
    expect(context.telemetryContext).toBe(telemetry);
    expect(BACKGROUND_CONTEXT.telemetryContext).toBe(ROOT_TELEMETRY);
  });
});

describe('withAbortSignal', () => {
  it('aborts the child when the parent signal aborts, with the parent reason', () => {
    const parent = new AbortController();
    const child = new AbortController();
    const context = withAbortSignal(child.signal, withAbortSignal(parent.signal, BACKGROUND_CONTEXT));
    const reason = new Error('parent gone');
    parent.abort(reason);
    expect(context.abortSignal?.aborted).toBe(true);
    expect(context.abortSignal?.reason).toBe(reason);
  });

  it('does not abort the parent when the child signal aborts', () => {
    const parent = new AbortController();
    const child = new AbortController();
    const parentContext = withAbortSignal(parent.signal, BACKGROUND_CONTEXT);
    const childContext = withAbortSignal(child.signal, parentContext);
    child.abort('child reason');
    expect(childContext.abortSignal?.reason).toBe('child reason');
    expect(parentContext.abortSignal?.aborted).toBe(false);
  });

  it('uses the signal itself when the parent has none', () => {
    const controller = new AbortController();
    expect(withAbortSignal(controller.signal, BACKGROUND_CONTEXT).abortSignal).toBe(controller.signal);
  });

  it('is aborted at once when the parent was already aborted', () => {
    const parent = withAbortSignal(AbortSignal.abort('early'), BACKGROUND_CONTEXT);
    const context = withAbortSignal(new AbortController().signal, parent);
    expect(context.abortSignal?.aborted).toBe(true);
    expect(context.abortSignal?.reason).toBe('early');
  });
});

describe('isContext', () => {
  it('recognises derived contexts', () => {
    expect(isContext(BACKGROUND_CONTEXT)).toBe(true);
    expect(isContext(withContextValue(RETRIES, 1, BACKGROUND_CONTEXT))).toBe(true);
  });

  it('rejects look-alikes and non-objects', () => {
    const lookAlike = { abortSignal: undefined, telemetryContext: ROOT_TELEMETRY, value: () => undefined };
    for (const value of [lookAlike, null, undefined, 'context', 1, [], Object.create(BACKGROUND_CONTEXT)]) {
      expect(isContext(value)).toBe(false);
    }
  });

  it('rejects copies: spread, decoded from JSON, or keyed by the brand name as a string', () => {
    const context = withContextValue(RETRIES, 2, BACKGROUND_CONTEXT);
    const decoded: unknown = JSON.parse(JSON.stringify({ ...context, '@pi/context.values.v1': {} }));
    for (const value of [{ ...context }, decoded, Object.freeze({ ...context })]) {
      expect(isContext(value)).toBe(false);
    }
  });
});
