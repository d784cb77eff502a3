import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  BACKGROUND_CONTEXT,
  ROOT_TELEMETRY,
  createContextKey,
  withAbortSignal,
  withContextValue,
  withTelemetryContext,
  type Context,
} from '@pi/context';
import { installInMemoryTelemetry, type InMemoryTelemetry } from '@pi/context/testing';
import { createRemoteState, type StateChange } from './state';

interface Settings {
  theme: string;
  tags: string[];
}

const REQUEST_VALUE = createContextKey<string | undefined>('test.request-value', undefined);

let telemetry: InMemoryTelemetry;
beforeEach(() => {
  telemetry = installInMemoryTelemetry();
});
afterEach(() => {
  telemetry.uninstall();
  vi.restoreAllMocks();
});

/** Runs `write` inside a span, with a context that also carries a signal and a value, and returns the span ids. */
function inSetterSpan(write: (context: Context) => void): { traceId: string | undefined; spanId: string | undefined } {
  return ROOT_TELEMETRY.startSpan({ name: 'test.setter' }, (span) => {
    const controller = new AbortController();
    controller.abort();
    write(
      withContextValue(
        REQUEST_VALUE,
        'caller-only',
        withAbortSignal(controller.signal, withTelemetryContext(span, BACKGROUND_CONTEXT)),
      ),
    );
    return { traceId: span.traceId, spanId: span.spanId };
  });
}

describe('createRemoteState', () => {
  it('starts at revision 0 and counts each real change once', () => {
    const state = createRemoteState<Settings>({ theme: 'dark', tags: [] });
    expect(state.revision).toBe(0);
    state.set({ theme: 'light', tags: [] }, BACKGROUND_CONTEXT);
    state.set({ theme: 'light', tags: ['a'] }, BACKGROUND_CONTEXT);
    expect(state.revision).toBe(2);
    expect(state.value).toEqual({ theme: 'light', tags: ['a'] });
  });

  it('suppresses a set of an equal value: no revision, no delivery, no observed change', () => {
    const state = createRemoteState<Settings>({ theme: 'dark', tags: ['a'] });
    const heard: Settings[] = [];
    const observed: Array<StateChange<Settings>> = [];
    state.subscribe((value) => heard.push(value));
    state.observe((change) => observed.push(change));
    state.set({ tags: ['a'], theme: 'dark' }, BACKGROUND_CONTEXT);
    expect(state.revision).toBe(0);
    expect(heard).toHaveLength(1);
    expect(observed).toEqual([]);
  });

  it('detaches the value from what the setter passed and freezes it', () => {
    const written: Settings = { theme: 'dark', tags: ['a'] };
    const state = createRemoteState<Settings>({ theme: 'x', tags: [] });
    state.set(written, BACKGROUND_CONTEXT);
    written.tags.push('mutated later');
    expect(state.value.tags).toEqual(['a']);
    expect(Object.isFrozen(state.value)).toBe(true);
    expect(Object.isFrozen(state.value.tags)).toBe(true);
  });

  it('keeps a listener that mutates its value from affecting the next listener or .value', () => {
    vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const state = createRemoteState<Settings>({ theme: 'dark', tags: [] });
    const seenBySecond: Settings[] = [];
    state.subscribe((value) => {
      value.tags.push('vandal');
    });
    state.subscribe((value) => seenBySecond.push(value));
    state.set({ theme: 'light', tags: ['a'] }, BACKGROUND_CONTEXT);
    expect(seenBySecond.at(-1)).toEqual({ theme: 'light', tags: ['a'] });
    expect(state.value.tags).toEqual(['a']);
  });

  it('rejects a value that is not strict JSON and keeps the old one', () => {
    expect(() => createRemoteState({ when: new Date(0) })).toThrow(/date at \$\.when/);
    const state = createRemoteState<{ n: number }>({ n: 1 });
    expect(() => state.set({ n: Number.NaN }, BACKGROUND_CONTEXT)).toThrow(/non_finite_number/);
    expect(state.value).toEqual({ n: 1 });
    expect(state.revision).toBe(0);
  });

  it('feeds observers each change with its revision and the setter trace carrier', () => {
    const state = createRemoteState({ n: 0 });
    const observed: Array<StateChange<{ n: number }>> = [];
    state.observe((change) => observed.push(change));
    const setter = inSetterSpan((context) => state.set({ n: 1 }, context));
    expect(observed).toHaveLength(1);
    expect(observed[0]?.revision).toBe(1);
    expect(observed[0]?.value).toEqual({ n: 1 });
    expect(observed[0]?.carrier.traceparent).toContain(setter.traceId);
  });
});

describe('state listener contexts', () => {
  it('runs the immediate subscribe callback under the hydration context', () => {
    const hydration = withContextValue(REQUEST_VALUE, 'hydration', BACKGROUND_CONTEXT);
    const state = createRemoteState({ n: 0 }, { hydrationContext: () => hydration });
    inSetterSpan((context) => state.set({ n: 1 }, context));
    const contexts: Context[] = [];
    state.subscribe((_value, context) => contexts.push(context));
    expect(contexts).toEqual([hydration]);
  });

  it('uses the background context for the immediate callback by default', () => {
    const state = createRemoteState({ n: 0 });
    const contexts: Context[] = [];
    state.subscribe((_value, context) => contexts.push(context));
    expect(contexts).toEqual([BACKGROUND_CONTEXT]);
  });

  it("delivers a change under a context rebuilt from the setter's trace, not the setter's signal or values", () => {
    const state = createRemoteState({ n: 0 });
    const contexts: Context[] = [];
    state.subscribe((_value, context) => contexts.push(context));
    const setter = inSetterSpan((context) => state.set({ n: 1 }, context));
    const delivery = contexts[1];
    expect(delivery?.telemetryContext.traceId).toBe(setter.traceId);
    expect(delivery?.telemetryContext.spanId).toBe(setter.spanId);
    expect(delivery?.abortSignal).toBeUndefined();
    expect(delivery?.value(REQUEST_VALUE)).toBeUndefined();
  });

  it('delivers a background write under the background context', () => {
    const state = createRemoteState({ n: 0 });
    const contexts: Context[] = [];
    state.subscribe((_value, context) => contexts.push(context));
    state.set({ n: 1 }, BACKGROUND_CONTEXT);
    expect(contexts[1]).toBe(BACKGROUND_CONTEXT);
  });
});

describe('state listeners', () => {
  it('isolates a throwing listener: the others still hear the change and the throw is reported', () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const state = createRemoteState({ n: 0 });
    const heard: number[] = [];
    state.subscribe(() => {
      throw new Error('listener bug');
    });
    state.subscribe((value) => heard.push(value.n));
    state.set({ n: 1 }, BACKGROUND_CONTEXT);
    expect(heard).toEqual([0, 1]);
    expect(state.value.n).toBe(1);
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining('listener bug'),
      expect.objectContaining({ code: 'PI_LISTENER_ERROR' }),
    );
  });

  it('stops delivering to exactly the listener whose disposer ran', () => {
    const state = createRemoteState({ n: 0 });
    const first: number[] = [];
    const second: number[] = [];
    const stopFirst = state.subscribe((value) => first.push(value.n));
    state.subscribe((value) => second.push(value.n));
    stopFirst();
    state.set({ n: 1 }, BACKGROUND_CONTEXT);
    expect(first).toEqual([0]);
    expect(second).toEqual([0, 1]);
  });

  it('treats the same function subscribed twice as two subscriptions', () => {
    const state = createRemoteState({ n: 0 });
    const heard: number[] = [];
    const listener = (value: { n: number }) => heard.push(value.n);
    const stopOne = state.subscribe(listener);
    state.subscribe(listener);
    stopOne();
    state.set({ n: 1 }, BACKGROUND_CONTEXT);
    expect(heard).toEqual([0, 0, 1]);
  });

  it('tells every listener about changes in order when a listener writes again', () => {
    const state = createRemoteState({ n: 0 });
    const first: number[] = [];
    const second: number[] = [];
    const observed: number[] = [];
    state.observe((change) => observed.push(change.value.n));
    state.subscribe((value, _context) => {
      first.push(value.n);
      if (value.n === 1) state.set({ n: 2 }, BACKGROUND_CONTEXT);
    });
    state.subscribe((value) => second.push(value.n));
    state.set({ n: 1 }, BACKGROUND_CONTEXT);
    expect(first).toEqual([0, 1, 2]);
    expect(second).toEqual([0, 1, 2]);
    expect(observed).toEqual([1, 2]);
  });

  it('stops feeding exactly the observer whose disposer ran', () => {
    const state = createRemoteState({ n: 0 });
    const kept: number[] = [];
    const stop = state.observe(() => kept.push(-1));
    state.observe((change) => kept.push(change.revision));
    stop();
    state.set({ n: 1 }, BACKGROUND_CONTEXT);
    expect(kept).toEqual([1]);
  });
});
