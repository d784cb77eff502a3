import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { BACKGROUND_CONTEXT, isContext, withContextValue, type Context } from '@pi/context';
import { CLIENT_ID } from './context-keys';
import { ConnectionEndpoint } from './endpoint';
import { RemoteError } from './errors';
import type { CallRequest, WatchFrame } from './protocol';
import { SETTLED_REFERENCE_GRACE_MS } from './references';
import { ServiceRegistry } from './service-registry';
import { createNotes, Notes, type NotesProvider } from './testing/notes-service';
import { defineRemoteService } from './tokens';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function setup(): { notes: NotesProvider; registry: ServiceRegistry; open(clientId?: string): ConnectionEndpoint } {
  const notes = createNotes();
  const registry = new ServiceRegistry();
  registry.provide(Notes, notes);
  const open = (clientId = 'client-1') =>
    new ConnectionEndpoint({
      registry,
      clientId,
      connectionContext: withContextValue(CLIENT_ID, clientId, BACKGROUND_CONTEXT),
    });
  return { notes, registry, open };
}

function request(
  member: string,
  args: unknown[] = [],
  target: CallRequest['target'] = { service: 'notes' },
): CallRequest {
  return { target, member, args, trace: {} };
}

async function failure(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (cause: unknown) => cause,
  );
  expect(error).toBeInstanceOf(RemoteError);
  return (error as RemoteError).code;
}

async function startExport(endpoint: ConnectionEndpoint): Promise<string> {
  const response = await endpoint.call(request('export'), 'start');
  expect(response.ref).toEqual(expect.any(String));
  return response.ref as string;
}

describe('ConnectionEndpoint watches', () => {
  it('streams an atomic snapshot first, then each change and event, numbered without gaps', () => {
    const { notes, open } = setup();
    notes.state.set({ notes: ['before'] }, BACKGROUND_CONTEXT);
    const frames: WatchFrame[] = [];
    open().watch({ service: 'notes' }, (frame) => frames.push(frame));
    notes.state.set({ notes: ['before', 'after'] }, BACKGROUND_CONTEXT);
    notes.state.set({ notes: ['before', 'after'] }, BACKGROUND_CONTEXT);
    notes.events.emit({ type: 'cleared' }, BACKGROUND_CONTEXT);
    expect(frames.map((frame) => [frame.kind, frame.seq])).toEqual([
      ['snapshot', 0],
      ['state', 1],
      ['event', 2],
    ]);
    expect(frames[0]).toEqual({
      kind: 'snapshot',
      seq: 0,
      state: { state: { revision: 1, value: { notes: ['before'] } } },
    });
    expect(frames[1]).toMatchObject({ cell: 'state', revision: 2, value: { notes: ['before', 'after'] } });
  });

  it('stops streaming and frees the subscription when the watch is stopped', () => {
    const { notes, open } = setup();
    const endpoint = open();
    const frames: WatchFrame[] = [];
    const stop = endpoint.watch({ service: 'notes' }, (frame) => frames.push(frame));
    expect(endpoint.stats.subscriptions).toBe(1);
    stop();
    stop();
    notes.state.set({ notes: ['late'] }, BACKGROUND_CONTEXT);
    expect(frames).toHaveLength(1);
    expect(endpoint.stats.subscriptions).toBe(0);
  });

  it('refuses a watch of an object whose state breaks its contract with invalid_result', () => {
    const { notes, open } = setup();
    notes.state.set({ notes: 'not a list' } as never, BACKGROUND_CONTEXT);
    const endpoint = open();
    expect(() => endpoint.watch({ service: 'notes' }, () => undefined)).toThrow(
      expect.objectContaining({ code: 'invalid_result' }),
    );
    expect(endpoint.stats.subscriptions).toBe(0);
  });

  it('withholds a change or event that breaks the contract, leaving no gap in the numbering', () => {
    vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const { notes, open } = setup();
    const frames: WatchFrame[] = [];
    open().watch({ service: 'notes' }, (frame) => frames.push(frame));
    notes.state.set({ notes: [42] } as never, BACKGROUND_CONTEXT);
    notes.events.emit({ type: 'exploded' } as never, BACKGROUND_CONTEXT);
    notes.events.emit({ type: 'cleared' }, BACKGROUND_CONTEXT);
    expect(frames.map((frame) => [frame.kind, frame.seq])).toEqual([
      ['snapshot', 0],
      ['event', 1],
    ]);
  });

  it('refuses a watch past the subscription limit with limit_exceeded', () => {
    const { registry } = setup();
    const endpoint = new ConnectionEndpoint({
      registry,
      clientId: 'c',
      connectionContext: BACKGROUND_CONTEXT,
      limits: { maxSubscriptions: 1 },
    });
    endpoint.watch({ service: 'notes' }, () => undefined);
    expect(() => endpoint.watch({ service: 'notes' }, () => undefined)).toThrow(
      expect.objectContaining({ code: 'limit_exceeded' }),
    );
  });
});

describe('ConnectionEndpoint calls', () => {
  interface Arities {
    none(context: Context): Promise<unknown[]>;
    one(a: number, context: Context): Promise<unknown[]>;
    two(a: number, b: number, context: Context): Promise<unknown[]>;
    three(a: number, b: number, c: number, context: Context): Promise<unknown[]>;
  }
  const n = z.number();
  const seen = z.array(z.unknown());
  const Arities = defineRemoteService<Arities>('arities', {
    methods: {
      none: { args: [], result: seen },
      one: { args: [n], result: seen },
      two: { args: [n, n], result: seen },
      three: { args: [n, n, n], result: seen },
    },
    state: {},
    events: {},
  });

  it('a method gets each argument in order and then the call’s context, whatever its arity', async () => {
    // What a method saw: its arguments, and whether the last one is a context.
    const heard = (...values: unknown[]) => Promise.resolve([...values.slice(0, -1), isContext(values.at(-1))]);
    const registry = new ServiceRegistry();
    registry.provide(Arities, { none: heard, one: heard, two: heard, three: heard } as unknown as Arities);
    const endpoint = new ConnectionEndpoint({ registry, clientId: 'c', connectionContext: BACKGROUND_CONTEXT });
    const call = (member: string, args: number[]) =>
      endpoint.call({ target: { service: 'arities' }, member, args, trace: {} }, member);
    expect((await call('none', [])).value).toEqual([true]);
    expect((await call('one', [1])).value).toEqual([1, true]);
    expect((await call('two', [1, 2])).value).toEqual([1, 2, true]);
    expect((await call('three', [1, 2, 3])).value).toEqual([1, 2, 3, true]);
  });
});

describe('ConnectionEndpoint references', () => {
  it('serves calls and watches on a reference it returned', async () => {
    const { notes, open } = setup();
    const endpoint = open();
    const ref = await startExport(endpoint);
    const frames: WatchFrame[] = [];
    endpoint.watch({ ref }, (frame) => frames.push(frame));
    await endpoint.call(request('finish', [], { ref }), 'finish');
    expect(notes.jobs[0]?.progress.value).toEqual({ done: true });
    expect(frames.map((frame) => frame.kind)).toEqual(['snapshot', 'state']);
    expect(endpoint.stats).toEqual({ activeCalls: 0, subscriptions: 1, references: 1 });
  });

  it("answers stale_reference for a released, made-up or another connection's reference", async () => {
    const { open } = setup();
    const mine = open('mine');
    const theirs = open('theirs');
    const ref = await startExport(theirs);
    expect(await failure(mine.call(request('finish', [], { ref }), '1'))).toBe('stale_reference');
    expect(() => mine.watch({ ref }, () => undefined)).toThrow(expect.objectContaining({ code: 'stale_reference' }));
    expect(() => mine.release(ref)).toThrow(expect.objectContaining({ code: 'stale_reference' }));
    expect(await failure(mine.call(request('finish', [], { ref: 'ref_madeup' }), '2'))).toBe('stale_reference');
    theirs.release(ref);
    expect(await failure(theirs.call(request('finish', [], { ref }), '3'))).toBe('stale_reference');
  });

  it("ends a reference's watches when the reference is released, telling the watcher why", async () => {
    const { notes, open } = setup();
    const endpoint = open();
    const ref = await startExport(endpoint);
    const frames: WatchFrame[] = [];
    const ended: string[] = [];
    endpoint.watch(
      { ref },
      (frame) => frames.push(frame),
      (error) => ended.push(error.code),
    );
    endpoint.release(ref);
    notes.jobs[0]?.progress.set({ done: true }, BACKGROUND_CONTEXT);
    expect(frames).toHaveLength(1);
    expect(ended).toEqual(['stale_reference']);
    expect(endpoint.stats).toEqual({ activeCalls: 0, subscriptions: 0, references: 0 });
  });

  it('releases a settled job, and ends its watch, one grace period after it settles', async () => {
    vi.useFakeTimers();
    const { notes, open } = setup();
    const endpoint = open();
    const ref = await startExport(endpoint);
    const ended: string[] = [];
    endpoint.watch(
      { ref },
      () => undefined,
      (error) => ended.push(error.code),
    );
    await notes.jobs[0]?.finish(BACKGROUND_CONTEXT);
    await vi.advanceTimersByTimeAsync(SETTLED_REFERENCE_GRACE_MS - 1);
    expect(endpoint.stats.references).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(endpoint.stats).toEqual({ activeCalls: 0, subscriptions: 0, references: 0 });
    expect(ended).toEqual(['stale_reference']);
    expect(await failure(endpoint.call(request('finish', [], { ref }), 'late'))).toBe('stale_reference');
  });

  it('refuses a returned object that does not implement its exposure, and holds nothing for it', async () => {
    const { notes, open } = setup();
    const endpoint = open();
    notes.export = async () => ({ progress: { value: { done: false } } }) as never;
    expect(await failure(endpoint.call(request('export'), 'bad'))).toBe('invalid_result');
    expect(endpoint.stats.references).toBe(0);
  });

  it('refuses a reference past the reference limit with limit_exceeded', async () => {
    const { registry } = setup();
    const endpoint = new ConnectionEndpoint({
      registry,
      clientId: 'c',
      connectionContext: BACKGROUND_CONTEXT,
      limits: { maxReferences: 1 },
    });
    await startExport(endpoint);
    expect(await failure(endpoint.call(request('export'), 'second'))).toBe('limit_exceeded');
  });
});

describe('ConnectionEndpoint close', () => {
  it('aborts active calls with disconnected and drops every watch and reference', async () => {
    const { notes, open } = setup();
    const endpoint = open();
    await startExport(endpoint);
    endpoint.watch({ service: 'notes' }, () => undefined);
    const blocked = failure(endpoint.call(request('block'), 'blocked'));
    expect(endpoint.stats).toEqual({ activeCalls: 1, subscriptions: 1, references: 1 });
    endpoint.close();
    expect(await blocked).toBe('disconnected');
    expect(endpoint.stats).toEqual({ activeCalls: 0, subscriptions: 0, references: 0 });
    expect(await failure(endpoint.call(request('count'), 'after'))).toBe('disconnected');
    expect(() => endpoint.watch({ service: 'notes' }, () => undefined)).toThrow(
      expect.objectContaining({ code: 'disconnected' }),
    );
    expect(notes.jobs[0]?.progress.value).toEqual({ done: false });
  });

  it('cancels only the call whose id the client names', async () => {
    const { open } = setup();
    const endpoint = open();
    const first = endpoint.call(request('block'), 'first').then(
      () => 'resolved',
      (error: RemoteError) => error.code,
    );
    const second = endpoint.call(request('block'), 'second');
    endpoint.cancel('first');
    endpoint.cancel('unknown');
    expect(await first).toBe('cancelled');
    expect(endpoint.stats.activeCalls).toBe(1);
    endpoint.close();
    await second.catch(() => undefined);
  });
});

describe('serving interactions', () => {
  it('counts as a subscription, and a new declaration ends the previous stream', async () => {
    const { InteractionBroker } = await import('./interaction-broker');
    const broker = new InteractionBroker();
    const endpoint = new ConnectionEndpoint({
      registry: new ServiceRegistry(),
      clientId: 'c',
      connectionContext: BACKGROUND_CONTEXT,
      broker,
      limits: { maxSubscriptions: 1 },
    });
    const ended: string[] = [];
    endpoint.serveInteractions(
      ['ask'],
      () => undefined,
      (error) => ended.push(error.code),
    );
    expect(endpoint.stats.subscriptions).toBe(1);

    endpoint.serveInteractions(['ask', 'confirm'], () => undefined);

    expect(ended).toEqual(['cancelled']);
    expect(endpoint.stats.subscriptions).toBe(1);
    expect(broker.eligibleClients('confirm')).toEqual(['c']);
    endpoint.close();
    expect(endpoint.stats.subscriptions).toBe(0);
    expect(broker.eligibleClients('ask')).toEqual([]);
  });
});
