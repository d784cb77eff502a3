import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BACKGROUND_CONTEXT, ROOT_TELEMETRY, withAbortSignal, withTelemetryContext, type Context } from '@pi/context';
import { installInMemoryTelemetry, type InMemoryTelemetry } from '@pi/context/testing';
import type { WatchObserver } from './channel';
import { RemoteError } from './errors';
import type { Target } from './protocol';
import { RemoteObject, releaseRemote } from './remote-object';
import { ServiceRegistry } from './service-registry';
import { InMemoryChannel } from './testing/in-memory-channel';
import { createNotes, Notes, type NotesProvider, type NotesService } from './testing/notes-service';

let telemetry: InMemoryTelemetry;
let notes: NotesProvider;
let channel: InMemoryChannel;

beforeEach(() => {
  telemetry = installInMemoryTelemetry();
  notes = createNotes();
  const registry = new ServiceRegistry();
  registry.provide(Notes, notes);
  channel = new InMemoryChannel({ registry });
});
afterEach(() => {
  channel.endpoint.close();
  telemetry.uninstall();
  vi.restoreAllMocks();
});

async function hydrated(context: Context = BACKGROUND_CONTEXT): Promise<{ object: RemoteObject; proxy: NotesService }> {
  const object = new RemoteObject(channel, { service: 'notes' }, Notes.exposure);
  await object.hydrate(context);
  return { object, proxy: object.proxy as unknown as NotesService };
}

/** Settles every frame already queued by the in-memory channel. */
async function flush(): Promise<void> {
  for (let turn = 0; turn < 5; turn++) await Promise.resolve();
}

describe('RemoteObject calls', () => {
  it('calls with JSON arguments and strips the trailing Context', async () => {
    const { proxy } = await hydrated();
    const spy = vi.spyOn(channel, 'call');
    expect(await proxy.add('first', BACKGROUND_CONTEXT)).toBe(1);
    expect(spy.mock.calls[0]?.[0]).toMatchObject({ target: { service: 'notes' }, member: 'add', args: ['first'] });
  });

  it('refuses a non-Context in the context position and extra arguments, sending nothing', async () => {
    const { proxy } = await hydrated();
    const spy = vi.spyOn(channel, 'call');
    const loose = proxy.add as unknown as (...args: unknown[]) => Promise<number>;
    await expect(loose('a', { abortSignal: undefined })).rejects.toMatchObject({
      code: 'invalid_argument',
      data: { reason: 'arity' },
    });
    await expect(loose('a', BACKGROUND_CONTEXT, 'extra')).rejects.toMatchObject({
      code: 'invalid_argument',
      data: { reason: 'arity' },
    });
    expect(spy).not.toHaveBeenCalled();
  });
});

describe('RemoteObject replicas', () => {
  it('applies updates in order after the snapshot', async () => {
    notes.state.set({ notes: ['before'] }, BACKGROUND_CONTEXT);
    const { proxy } = await hydrated();
    const seen: string[][] = [];
    proxy.state.subscribe((value) => seen.push([...value.notes]));
    await notes.add('a', BACKGROUND_CONTEXT);
    await notes.add('b', BACKGROUND_CONTEXT);
    await flush();
    expect(seen).toEqual([['before'], ['before', 'a'], ['before', 'a', 'b']]);
    expect(proxy.state.revision).toBe(notes.state.revision);
  });

  it('keeps a listener that mutates a state value or an event from affecting another listener or .value', async () => {
    vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const { proxy } = await hydrated();
    const otherStates: string[][] = [];
    const otherEvents: unknown[] = [];
    proxy.state.subscribe((value) => value.notes.push('vandal'));
    proxy.state.subscribe((value) => otherStates.push([...value.notes]));
    proxy.events.subscribe((event) => Object.assign(event, { type: 'cleared' }));
    proxy.events.subscribe((event) => otherEvents.push({ ...event }));
    await notes.add('a', BACKGROUND_CONTEXT);
    await flush();
    expect(otherStates).toEqual([[], ['a']]);
    expect(proxy.state.value.notes).toEqual(['a']);
    expect(otherEvents).toEqual([{ type: 'added', text: 'a' }]);
  });

  it('ignores a frame whose revision it already holds', async () => {
    const { proxy } = await hydrated();
    const seen: number[] = [];
    proxy.state.subscribe(() => seen.push(proxy.state.revision));
    const observer = channel.watches[0]?.observer as WatchObserver;
    observer.next({ kind: 'state', seq: 1, cell: 'state', revision: 0, value: { notes: ['stale'] }, trace: {} });
    expect(seen).toEqual([0]);
    expect(proxy.state.value.notes).toEqual([]);
  });

  it('starts over from a fresh snapshot when a frame is missing', async () => {
    const { proxy } = await hydrated();
    notes.state.set({ notes: ['x', 'y'] }, BACKGROUND_CONTEXT);
    const observer = channel.watches[0]?.observer as WatchObserver;
    observer.next({ kind: 'event', seq: 5, stream: 'events', event: { type: 'cleared' }, trace: {} });
    await flush();
    expect(channel.watches).toHaveLength(2);
    expect(channel.watches[0]?.stopped).toBe(true);
    expect(proxy.state.value.notes).toEqual(['x', 'y']);
    expect(channel.endpoint.stats.subscriptions).toBe(1);
  });

  it('fails hydration with invalid_result when a snapshot breaks the contract', async () => {
    const object = new RemoteObject(channel, { service: 'notes' }, Notes.exposure);
    const hydration = object.hydrate(BACKGROUND_CONTEXT);
    // Delivered before the host's own snapshot, as a misbehaving host would send it.
    channel.watches[0]?.observer.next({
      kind: 'snapshot',
      seq: 0,
      state: { state: { revision: 0, value: { notes: 'not a list' } } },
    });
    await expect(hydration).rejects.toMatchObject({ code: 'invalid_result' });
    expect(channel.endpoint.stats.subscriptions).toBe(0);
  });

  it('drops an update that breaks the contract, reports it, and keeps the watch', async () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const { proxy } = await hydrated();
    const observer = channel.watches[0]?.observer as WatchObserver;
    observer.next({ kind: 'state', seq: 1, cell: 'state', revision: 1, value: { notes: [1] }, trace: {} });
    observer.next({ kind: 'event', seq: 2, stream: 'events', event: { type: 'exploded' }, trace: {} });
    expect(proxy.state.value.notes).toEqual([]);
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining('breaks its contract'),
      expect.objectContaining({ code: 'PI_CONTRACT_VIOLATION' }),
    );
    expect(channel.watches).toHaveLength(1);
  });
});

describe('RemoteObject hydration and cancellation', () => {
  it('keeps replicating after the context that hydrated it is aborted', async () => {
    const controller = new AbortController();
    const { proxy } = await hydrated(withAbortSignal(controller.signal, BACKGROUND_CONTEXT));
    controller.abort();
    await notes.add('after abort', BACKGROUND_CONTEXT);
    await flush();
    expect(proxy.state.value.notes).toEqual(['after abort']);
    expect(channel.endpoint.stats.subscriptions).toBe(1);
  });

  it('cancels a hydration whose context aborts first, and ends its watch', async () => {
    const controller = new AbortController();
    const object = new RemoteObject(channel, { service: 'notes' }, Notes.exposure);
    const hydration = object.hydrate(withAbortSignal(controller.signal, BACKGROUND_CONTEXT));
    controller.abort();
    await expect(hydration).rejects.toMatchObject({ code: 'cancelled' });
    expect(channel.endpoint.stats.subscriptions).toBe(0);
  });

  it('runs the immediate callback under the hydration context, and updates under the source context', async () => {
    const use = ROOT_TELEMETRY.startSpan({ name: 'ui.open' }, (span) => span);
    const { proxy } = await hydrated(withTelemetryContext(use, BACKGROUND_CONTEXT));
    const source = await ROOT_TELEMETRY.startSpan({ name: 'server.write' }, async (span) => {
      await notes.add('traced', withTelemetryContext(span, BACKGROUND_CONTEXT));
      return span;
    });
    await flush();
    const contexts: Context[] = [];
    const events: Context[] = [];
    proxy.events.subscribe((_event, context) => events.push(context));
    proxy.state.subscribe((_value, context) => contexts.push(context));
    await notes.add('second', withTelemetryContext(source, BACKGROUND_CONTEXT));
    await flush();
    const hydrationSpan = telemetry.spans().find((span) => span.name === 'rpc.hydrate notes');
    expect(hydrationSpan?.parentSpanId).toBe(use.spanId);
    expect(contexts[0]?.telemetryContext.traceId).toBe(use.traceId);
    expect(contexts[0]?.telemetryContext.spanId).toBe(hydrationSpan?.spanId);
    expect(contexts[1]?.telemetryContext.traceId).toBe(source.traceId);
    expect(contexts[1]?.telemetryContext.spanId).toBe(source.spanId);
    expect(events[0]?.telemetryContext.spanId).toBe(source.spanId);
    expect(contexts[1]?.abortSignal).toBeUndefined();
  });
});

describe('RemoteObject references', () => {
  it('returns a hydrated proxy for a remote result, which releaseRemote hands back', async () => {
    const { proxy } = await hydrated();
    const job = await proxy.export(BACKGROUND_CONTEXT);
    expect(job.progress.value).toEqual({ done: false });
    expect(channel.endpoint.stats).toMatchObject({ subscriptions: 2, references: 1 });
    await releaseRemote(job);
    expect(channel.endpoint.stats).toMatchObject({ subscriptions: 1, references: 0 });
    await expect(job.finish(BACKGROUND_CONTEXT)).rejects.toMatchObject({ code: 'stale_reference' });
    await expect(releaseRemote({})).rejects.toThrow(TypeError);
  });

  it('keeps a job replicating after the call context that returned it is aborted', async () => {
    const { proxy } = await hydrated();
    const controller = new AbortController();
    const job = await proxy.export(withAbortSignal(controller.signal, BACKGROUND_CONTEXT));
    controller.abort();
    await notes.jobs[0]?.finish(BACKGROUND_CONTEXT);
    await flush();
    expect(job.progress.value).toEqual({ done: true });
  });

  it('releases a returned reference whose hydration fails, so the host holds nothing for it', async () => {
    const { proxy } = await hydrated();
    const watch = channel.watch.bind(channel);
    vi.spyOn(channel, 'watch').mockImplementation((target: Target, observer: WatchObserver) => {
      if (!('ref' in target)) return watch(target, observer);
      queueMicrotask(() => observer.error(new RemoteError('unavailable', 'No watch today').toEnvelope()));
      return () => undefined;
    });
    await expect(proxy.export(BACKGROUND_CONTEXT)).rejects.toMatchObject({ code: 'unavailable' });
    expect(channel.endpoint.stats.references).toBe(0);
  });
});
