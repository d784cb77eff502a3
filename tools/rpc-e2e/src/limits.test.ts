import { afterEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT, withAbortSignal } from '@pi/context';
import { createRpcClient, type RpcClient } from '@pi/transport-trpc';
import {
  Catalog,
  FIXTURE_TOKEN,
  Probe,
  TRANSPORTS,
  createCatalog,
  createProbe,
  eventually,
  nextValue,
  remoteErrorOf,
  serveHost,
  startRpcFixture,
  type HostTransport,
  type ProbeLog,
  type RpcFixture,
  type RpcFixtureOptions,
} from '@pi/test-support';

describe.each(TRANSPORTS)('limits over %s', (kind) => {
  let fixture: RpcFixture;
  let served: HostTransport | undefined;
  let bystander: RpcClient | undefined;
  let log: ProbeLog;
  afterEach(async () => {
    bystander?.close();
    bystander = undefined;
    await served?.close();
    served = undefined;
    await fixture.close();
  });

  async function start(options: Omit<RpcFixtureOptions, 'provide'>) {
    const probe = createProbe();
    log = probe.log;
    fixture = await startRpcFixture(kind, {
      ...options,
      provide: (registry) => {
        registry.provide(Probe, probe);
        registry.provide(Catalog, createCatalog());
      },
    });
    return fixture.connect();
  }

  /** Another connection to the same host, with the same limits. */
  async function connectBystander() {
    served = await serveHost(kind, fixture.host);
    bystander = createRpcClient({
      socketFactory: served.socketFactory,
      connectionParams: { token: FIXTURE_TOKEN },
      reconnect: false,
    });
    return bystander;
  }

  it('a call past maxInFlightCalls is limit_exceeded; the calls in flight and other connections carry on', async () => {
    const probe = await (await start({ limits: { maxInFlightCalls: 2 } })).use(Probe);
    const controller = new AbortController();
    const first = probe.block('first', withAbortSignal(controller.signal, BACKGROUND_CONTEXT));
    const second = probe.block('second', BACKGROUND_CONTEXT);
    await eventually(() => log.started.length === 2);

    expect((await remoteErrorOf(probe.block('third', BACKGROUND_CONTEXT))).code).toBe('limit_exceeded');
    expect((await remoteErrorOf(probe.echo('also refused', BACKGROUND_CONTEXT))).code).toBe('limit_exceeded');
    expect(log.started).toEqual(['first', 'second']);
    const other = await (await connectBystander()).use(Probe);
    expect(await other.echo('other connection', BACKGROUND_CONTEXT)).toBe('other connection');

    controller.abort();
    expect((await remoteErrorOf(first)).code).toBe('cancelled');
    await eventually(() => fixture.stats().some((stats) => stats.activeCalls === 1));
    expect(await probe.echo('room again', BACKGROUND_CONTEXT)).toBe('room again');
    expect(log.aborted).toEqual(['first']);
    fixture.dropConnections();
    expect((await remoteErrorOf(second)).code).toBe('disconnected');
  });

  it('a subscription past maxSubscriptions is limit_exceeded until one ends', async () => {
    const client = await start({ limits: { maxSubscriptions: 1 } });
    const catalog = await client.acquire(Catalog);
    expect((await remoteErrorOf(client.use(Probe))).code).toBe('limit_exceeded');
    expect(fixture.stats()[0]?.subscriptions).toBe(1);
    await catalog.service.cycleThinking(BACKGROUND_CONTEXT);
    expect((await nextValue(catalog.service.state, (value) => value.thinkingLevel === 'off')).thinkingLevel).toBe(
      'off',
    );

    catalog.release();
    await eventually(() => fixture.stats()[0]?.subscriptions === 0);
    const probe = await client.use(Probe);
    expect(await probe.echo('subscribed', BACKGROUND_CONTEXT)).toBe('subscribed');
  });

  it('an oversize frame closes only its own connection, with a clear reason, and the host keeps serving', async () => {
    const client = await start({ maxPayload: 64 * 1024 });
    const probe = await client.use(Probe);
    const other = await (await connectBystander()).use(Probe);

    const error = await remoteErrorOf(probe.echo('x'.repeat(128 * 1024), BACKGROUND_CONTEXT));
    expect(error.code).toBe('disconnected');
    expect(error.message).toMatch(/maximum size/);
    const down = await nextValue(client.connection, (state) => state.status === 'disconnected');
    expect(down).toMatchObject({ reason: { code: 'disconnected', message: expect.stringMatching(/maximum size/) } });

    expect(await other.echo('unaffected', BACKGROUND_CONTEXT)).toBe('unaffected');
    expect(bystander?.connection.value.status).toBe('connected');
    await nextValue(client.connection, (state) => state.status === 'connected');
    expect(await probe.echo('x'.repeat(1024), BACKGROUND_CONTEXT)).toHaveLength(1024);
    expect(log.worked).toEqual(['echo', 'echo']);
  });
});
