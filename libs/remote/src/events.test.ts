import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  BACKGROUND_CONTEXT,
  ROOT_TELEMETRY,
  createContextKey,
  withContextValue,
  withTelemetryContext,
  type Context,
} from '@pi/context';
import { installInMemoryTelemetry, type InMemoryTelemetry } from '@pi/context/testing';
import { createRemoteEvents, type EmittedEvent } from './events';

type GitEvent = { type: 'status_changed'; files: string[] } | { type: 'head_changed'; head: string };

const REQUEST_VALUE = createContextKey<string | undefined>('test.events.request-value', undefined);

let telemetry: InMemoryTelemetry;
beforeEach(() => {
  telemetry = installInMemoryTelemetry();
});
afterEach(() => {
  telemetry.uninstall();
  vi.restoreAllMocks();
});

describe('createRemoteEvents', () => {
  it('delivers every event to subscribe listeners, in order', () => {
    const events = createRemoteEvents<GitEvent>();
    const heard: GitEvent[] = [];
    events.subscribe((event) => heard.push(event));
    events.emit({ type: 'head_changed', head: 'a' }, BACKGROUND_CONTEXT);
    events.emit({ type: 'status_changed', files: ['x'] }, BACKGROUND_CONTEXT);
    expect(heard).toEqual([
      { type: 'head_changed', head: 'a' },
      { type: 'status_changed', files: ['x'] },
    ]);
  });

  it('filters on(type) listeners by the discriminator', () => {
    const events = createRemoteEvents<GitEvent>();
    const heads: string[] = [];
    events.on('head_changed', (event) => heads.push(event.head));
    events.emit({ type: 'status_changed', files: [] }, BACKGROUND_CONTEXT);
    events.emit({ type: 'head_changed', head: 'b' }, BACKGROUND_CONTEXT);
    expect(heads).toEqual(['b']);
  });

  it('stops delivering to exactly the on(type) listener whose disposer ran', () => {
    const events = createRemoteEvents<GitEvent>();
    const heard: string[] = [];
    const stop = events.on('head_changed', () => heard.push('removed'));
    events.on('head_changed', () => heard.push('kept'));
    stop();
    events.emit({ type: 'head_changed', head: 'c' }, BACKGROUND_CONTEXT);
    expect(heard).toEqual(['kept']);
  });

  it('rejects an event that is not strict JSON and delivers nothing', () => {
    const events = createRemoteEvents<unknown>();
    const heard: unknown[] = [];
    events.subscribe((event) => heard.push(event));
    expect(() => events.emit({ type: 'x', at: new Map() }, BACKGROUND_CONTEXT)).toThrow(/map at \$\.at/);
    expect(heard).toEqual([]);
  });

  it('hands listeners a frozen copy, so one cannot change what the next one sees', () => {
    vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const events = createRemoteEvents<GitEvent>();
    const emitted = { type: 'status_changed' as const, files: ['a'] };
    const seen: GitEvent[] = [];
    events.subscribe((event) => {
      if (event.type === 'status_changed') event.files.push('vandal');
    });
    events.subscribe((event) => seen.push(event));
    events.emit(emitted, BACKGROUND_CONTEXT);
    emitted.files.push('changed by the emitter later');
    expect(seen).toEqual([{ type: 'status_changed', files: ['a'] }]);
  });

  it("delivers under a context rebuilt from the emitter's trace, without its values", () => {
    const events = createRemoteEvents<GitEvent>();
    const contexts: Context[] = [];
    const carriers: Array<EmittedEvent<GitEvent>> = [];
    events.subscribe((_event, context) => contexts.push(context));
    events.observe((emitted) => carriers.push(emitted));
    const source = ROOT_TELEMETRY.startSpan({ name: 'test.emitter' }, (span) => {
      events.emit(
        { type: 'head_changed', head: 'd' },
        withContextValue(REQUEST_VALUE, 'secret', withTelemetryContext(span, BACKGROUND_CONTEXT)),
      );
      return span;
    });
    expect(contexts[0]?.telemetryContext.traceId).toBe(source.traceId);
    expect(contexts[0]?.telemetryContext.spanId).toBe(source.spanId);
    expect(contexts[0]?.value(REQUEST_VALUE)).toBeUndefined();
    expect(carriers[0]?.carrier.traceparent).toContain(source.spanId);
  });

  it('isolates a throwing listener from the others', () => {
    vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const events = createRemoteEvents<GitEvent>();
    const heard: string[] = [];
    events.subscribe(() => {
      throw new Error('listener bug');
    });
    events.on('head_changed', (event) => heard.push(event.head));
    events.emit({ type: 'head_changed', head: 'e' }, BACKGROUND_CONTEXT);
    expect(heard).toEqual(['e']);
  });

  it('keeps emission order for every listener when a listener emits again', () => {
    const events = createRemoteEvents<GitEvent>();
    const first: string[] = [];
    const second: string[] = [];
    events.on('head_changed', (event) => {
      first.push(event.head);
      if (event.head === '1') events.emit({ type: 'head_changed', head: '2' }, BACKGROUND_CONTEXT);
    });
    events.on('head_changed', (event) => second.push(event.head));
    events.emit({ type: 'head_changed', head: '1' }, BACKGROUND_CONTEXT);
    expect(first).toEqual(['1', '2']);
    expect(second).toEqual(['1', '2']);
  });
});
