import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BACKGROUND_CONTEXT, type Context } from '@pi/context';
import { defineRemoteService } from '@pi/remote';
import { createRpcClient, type RpcClient } from '@pi/transport-trpc';
import {
  FIXTURE_TOKEN,
  Probe,
  TRANSPORTS,
  createProbe,
  eventually,
  nextValue,
  remoteErrorOf,
  serveHost,
  startRpcFixture,
  type HostTransport,
  type ProbeLog,
  type ProbeService,
  type RpcFixture,
  abortableContext,
} from '@pi/test-support';

/** A service that ignores its abort signal: it finishes only when the test lets it. */
interface StubbornService {
  hold(context: Context): Promise<string>;
}

const Stubborn = defineRemoteService<StubbornService>('stubborn', {
  methods: { hold: { args: [], result: z.string() } },
  state: {},
  events: {},
});

function stubborn() {
  const held: Array<() => void> = [];
  const service: StubbornService = { hold: () => new Promise((resolve) => held.push(() => resolve('released'))) };
  return { service, held };
}

describe.each(TRANSPORTS)('cancellation over %s', (kind) => {
  let fixture: RpcFixture;
  let served: HostTransport | undefined;
  let other: RpcClient | undefined;
  let log: ProbeLog;
  afterEach(async () => {
    other?.close();
    other = undefined;
    await served?.close();
    served = undefined;
    await fixture.close();
  });

  async function start(options: { reconnect?: false } = {}) {
    const probe = createProbe();
    log = probe.log;
    fixture = await startRpcFixture(kind, { provide: (registry) => registry.provide(Probe, probe) });
    const client = await fixture.connect(options);
    return { client, probe: await client.use(Probe) };
  }

  /** A second client on its own socket, which the fixture's `dropConnections` leaves alone. */
  async function otherProbe(): Promise<ProbeService> {
    served = await serveHost(kind, fixture.host);
    other = createRpcClient({
      socketFactory: served.socketFactory,
      connectionParams: { token: FIXTURE_TOKEN },
      reconnect: false,
    });
    return other.use(Probe);
  }

  it('aborting one call cancels only that call, on both sides', async () => {
    const { probe } = await start();
    const first = abortableContext();
    const second = abortableContext();
    const firstCall = probe.block('first', first.context);
    const secondCall = probe.block('second', second.context);
    await eventually(() => log.started.length === 2);

    first.controller.abort();
    expect((await remoteErrorOf(firstCall)).code).toBe('cancelled');
    // The client does not wait for the server; the server's side of the abort follows on its own.
    await eventually(() => log.aborted.length === 1 && fixture.stats()[0]?.activeCalls === 1);
    expect(log.aborted).toEqual(['first']);

    second.controller.abort();
    expect((await remoteErrorOf(secondCall)).code).toBe('cancelled');
    await eventually(() => log.aborted.length === 2);
  });

  it('a cancel reaches only calls of its own connection, though call ids repeat across connections', async () => {
    const { probe } = await start();
    const theirs = await otherProbe();
    const mine = abortableContext();
    const myCall = probe.block('mine', mine.context);
    const theirCall = theirs.block('theirs', BACKGROUND_CONTEXT);
    await eventually(() => log.started.length === 2);

    mine.controller.abort();
    expect((await remoteErrorOf(myCall)).code).toBe('cancelled');
    await eventually(() => log.aborted.length === 1);
    expect(log.aborted).toEqual(['mine']);
    other?.close();
    expect((await remoteErrorOf(theirCall)).code).toBe('disconnected');
  });

  it('an aborted call rejects at once, even when the service ignores its signal', async () => {
    const { service, held } = stubborn();
    fixture = await startRpcFixture(kind, { provide: (registry) => registry.provide(Stubborn, service) });
    const remote = await (await fixture.connect()).use(Stubborn);
    const { controller, context } = abortableContext();
    const call = remote.hold(context);
    await eventually(() => held.length === 1);
    controller.abort();
    expect((await remoteErrorOf(call)).code).toBe('cancelled');
    // The service is still running; its late result is dropped without harm.
    expect(fixture.stats()[0]?.activeCalls).toBe(1);
    held[0]?.();
    await eventually(() => fixture.stats()[0]?.activeCalls === 0);
    const next = remote.hold(BACKGROUND_CONTEXT);
    await eventually(() => held.length === 2);
    held[1]?.();
    expect(await next).toBe('released');
  });

  it('a call whose signal is already aborted does no work and sends no frame', async () => {
    const { probe } = await start();
    const { controller, context } = abortableContext();
    controller.abort();
    const sentBefore = fixture.frames.sent.length;
    expect((await remoteErrorOf(probe.block('never', context))).code).toBe('cancelled');
    expect((await remoteErrorOf(probe.echo('never', context))).code).toBe('cancelled');
    expect(fixture.frames.sent.length).toBe(sentBefore);
    expect(log.started).toEqual([]);
    expect(log.worked).toEqual([]);
  });

  it('aborting after the result arrived changes nothing', async () => {
    const { probe } = await start();
    const { controller, context } = abortableContext();
    expect(await probe.echo('done', context)).toBe('done');
    controller.abort();
    expect(await probe.echo('next', BACKGROUND_CONTEXT)).toBe('next');
  });

  it('a disconnect aborts every active call of that connection and rejects its callers with disconnected', async () => {
    const { probe } = await start();
    const theirs = await otherProbe();
    const calls = [probe.block('a1', BACKGROUND_CONTEXT), probe.block('a2', BACKGROUND_CONTEXT)];
    const survivor = theirs.block('b1', BACKGROUND_CONTEXT);
    await eventually(() => log.started.length === 3);

    fixture.dropConnections();
    for (const call of calls) expect((await remoteErrorOf(call)).code).toBe('disconnected');
    await eventually(() => log.aborted.length === 2);
    expect([...log.aborted].sort()).toEqual(['a1', 'a2']);
    await eventually(
      () =>
        fixture.stats().some((stats) => stats.activeCalls === 1) &&
        fixture.stats().every((stats) => stats.activeCalls <= 1),
    );

    other?.close();
    expect((await remoteErrorOf(survivor)).code).toBe('disconnected');
    await eventually(() => log.aborted.includes('b1'));
  });

  it('calls while disconnected fail at once with disconnected and send nothing', async () => {
    const { client, probe } = await start({ reconnect: false });
    fixture.dropConnections();
    const down = await nextValue(client.connection, (state) => state.status === 'disconnected');
    expect(down).toMatchObject({ status: 'disconnected', retrying: false });
    const sentBefore = fixture.frames.sent.length;
    expect((await remoteErrorOf(probe.echo('lost', BACKGROUND_CONTEXT))).code).toBe('disconnected');
    expect(fixture.frames.sent.length).toBe(sentBefore);
    expect(log.worked).toEqual([]);
  });

  it('calls while the server is down fail at once even though the client keeps retrying', async () => {
    fixture = await startRpcFixture(kind, { provide: (registry) => registry.provide(Probe, createProbe()) });
    served = await serveHost(kind, fixture.host);
    other = createRpcClient({
      socketFactory: served.socketFactory,
      connectionParams: { token: FIXTURE_TOKEN },
      reconnect: { minDelayMs: 5, maxDelayMs: 20 },
    });
    const probe = await other.use(Probe);
    await served.stop();
    await nextValue(other.connection, (state) => state.status === 'disconnected' && state.retrying);
    for (let attempt = 0; attempt < 3; attempt++) {
      expect((await remoteErrorOf(probe.echo('while down', BACKGROUND_CONTEXT))).code).toBe('disconnected');
    }
    await served.restore();
    await nextValue(other.connection, (state) => state.status === 'connected');
    expect(await probe.echo('back', BACKGROUND_CONTEXT)).toBe('back');
  });

  it('a call in flight when the connection drops is not replayed after reconnect', async () => {
    const { client, probe } = await start();
    const call = probe.block('once', BACKGROUND_CONTEXT);
    await eventually(() => log.started.length === 1);
    fixture.dropConnections();
    expect((await remoteErrorOf(call)).code).toBe('disconnected');
    await nextValue(client.connection, (state) => state.status === 'connected' && state.epoch === 2);
    // A replay would have been sent right after the new hello, ahead of this call on the same socket.
    expect(await probe.echo('after', BACKGROUND_CONTEXT)).toBe('after');
    expect(log.started).toEqual(['once']);
    expect(log.worked).toEqual(['echo']);
  });
});
