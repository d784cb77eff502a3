import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  BACKGROUND_CONTEXT,
  type Context,
  createContextKey,
  withAbortSignal,
  withContextValue,
  withTelemetryContext,
} from '@pi/context';
import { installInMemoryTelemetry } from '@pi/context/testing';
import { defineRemoteService } from '@pi/remote';
import { createRpcClient, type RpcClient, type SocketFactory } from '@pi/transport-trpc';
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
  wireViolations,
  type HostTransport,
  type RpcFixture,
} from '@pi/test-support';

const SERVER_SECRET = 'server-secret-41d7';
const CONTEXT_SECRET = 'context-secret-b3e0';
const SECRET_KEY = createContextKey<string | undefined>('test.secret', undefined);

const Crasher = defineRemoteService<{ crash(context: Context): Promise<void> }>('crasher', {
  methods: { crash: { args: [], result: z.void() } },
  state: {},
  events: {},
});

/** Sends text frames in order once the socket opens; resolves with every frame received until `done` holds. */
function exchange(
  factory: SocketFactory,
  frames: readonly string[],
  done: (received: string[]) => boolean,
): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const received: string[] = [];
    const socket = factory();
    socket.onOpen(() => frames.forEach((frame) => socket.send(frame)));
    socket.onMessage((data) => {
      received.push(data);
      if (done(received)) {
        socket.close(1000, 'done');
        resolve(received);
      }
    });
    socket.onClose(() => reject(new Error(`closed after ${JSON.stringify(received)}`)));
  });
}

const replyTo = (id: number) => (received: string[]) => received.some((frame) => frame.startsWith(`{"id":${id},`));
const mutation = (id: number, path: string, input: unknown) =>
  JSON.stringify({ id, method: 'mutation', params: { path, input: { json: input } } });

describe.each(TRANSPORTS)('security over %s', (kind) => {
  let fixture: RpcFixture;
  let served: HostTransport | undefined;
  const clients: RpcClient[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await served?.close();
    served = undefined;
    await fixture.close();
  });

  async function start() {
    fixture = await startRpcFixture(kind, {
      provide: (registry) => {
        registry.provide(Probe, createProbe());
        registry.provide(Catalog, createCatalog());
        registry.provide(Crasher, {
          async crash() {
            throw new Error(`cannot open /home/user/.keys: ${SERVER_SECRET}`);
          },
        });
      },
    });
    served = await serveHost(kind, fixture.host);
    return served;
  }

  function client(
    connectionParams: Record<string, string>,
    reconnect: false | { minDelayMs: number; maxDelayMs: number } = false,
  ): RpcClient {
    if (served === undefined) throw new Error('start() first');
    const created = createRpcClient({ socketFactory: served.socketFactory, connectionParams, reconnect });
    clients.push(created);
    return created;
  }

  it.each([
    ['a wrong token', { token: 'wrong-token' }],
    ['no token', {}],
  ])('%s is refused with not_authorized, and the client does not retry', async (_label, params) => {
    const transport = await start();
    const refused = client(params, { minDelayMs: 0, maxDelayMs: 0 });
    expect((await remoteErrorOf(refused.whenConnected())).code).toBe('not_authorized');
    expect(refused.connection.value).toMatchObject({
      status: 'disconnected',
      retrying: false,
      reason: { code: 'not_authorized' },
    });
    expect((await remoteErrorOf(refused.use(Probe))).code).toBe('not_authorized');
    // A retry would be due after a 0 ms backoff timer, which was scheduled before this one.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(transport.attempts).toBe(1);
    expect(transport.frames.received.join('\n')).not.toContain(FIXTURE_TOKEN);
  });

  it('the caller identity comes from the server: a fresh client id per connection and the authenticated principal', async () => {
    await start();
    const connected: string[] = [];
    const stop = fixture.host.onClientConnect((clientId) => connected.push(clientId));
    const first = await client({ token: FIXTURE_TOKEN }).use(Probe);
    const second = await client({ token: FIXTURE_TOKEN }).use(Probe);
    stop();
    const [a, b] = [await first.whoAmI(BACKGROUND_CONTEXT), await second.whoAmI(BACKGROUND_CONTEXT)];
    expect(connected).toHaveLength(2);
    expect([a.clientId, b.clientId].sort()).toEqual([...connected].sort());
    expect(a.clientId).not.toBe(b.clientId);
    expect(a.principal).toBe('fixture-user');
  });

  it('connection params cannot choose the client id or the principal', async () => {
    await start();
    const forged = {
      token: FIXTURE_TOKEN,
      clientId: 'forged',
      principal: 'root',
      'pi.client-id': 'forged',
      'pi.caller-identity': 'root',
    };
    const probe = await client(forged).use(Probe);
    const me = await probe.whoAmI(BACKGROUND_CONTEXT);
    expect(me.principal).toBe('fixture-user');
    expect(me.clientId).not.toBe('forged');
    expect(me.clientId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a "__proto__" in connection params forges nothing', async () => {
    const transport = await start();
    const params = `{"method":"connectionParams","data":{"token":"${FIXTURE_TOKEN}","__proto__":{"principal":"root","clientId":"forged"}}}`;
    const received = await exchange(
      transport.socketFactory,
      [params, mutation(1, 'probe.whoAmI', { a: [], c: '1', t: {} })],
      replyTo(1),
    );
    const reply = JSON.parse(received.find((frame) => frame.startsWith('{"id":1,')) ?? '{}');
    // Either the connection is refused, or it runs as the authenticated caller; never as the forged one.
    if (reply.error === undefined) expect(reply.result.data.json.value).toMatchObject({ principal: 'fixture-user' });
    else expect(['not_authorized', 'invalid_argument']).toContain(reply.error.json.data.remote.code);
    expect(JSON.stringify(reply)).not.toContain('forged');
  });

  it('context-shaped fields in a call envelope or its arguments change nothing', async () => {
    const transport = await start();
    const forgedFields = {
      clientId: 'forged',
      ctx: { clientId: 'forged' },
      context: { abortSignal: { aborted: true }, telemetryContext: {}, values: { 'pi.client-id': 'forged' } },
    };
    const received = await exchange(
      transport.socketFactory,
      [
        `{"method":"connectionParams","data":{"token":"${FIXTURE_TOKEN}"}}`,
        mutation(1, 'probe.whoAmI', { a: [], c: '1', t: {}, ...forgedFields }),
        mutation(2, 'probe.whoAmI', { a: [forgedFields], c: '2', t: {} }),
      ],
      (frames) => replyTo(1)(frames) && replyTo(2)(frames),
    );
    const [first, second] = [1, 2].map((id) =>
      JSON.parse(received.find((frame) => frame.startsWith(`{"id":${id},`)) ?? '{}'),
    );
    expect(first.result.data.json.value).toMatchObject({ principal: 'fixture-user' });
    expect(first.result.data.json.value.clientId).not.toBe('forged');
    expect(second.error.json.data.remote.code).toBe('invalid_argument');
  });

  it('no frame of a full session carries a context, signal, function, stack trace or secret', async () => {
    const telemetry = installInMemoryTelemetry();
    try {
      await start();
      const session = await fixture.connect();
      const [probe, catalog, crasher] = [
        await session.use(Probe),
        await session.use(Catalog),
        await session.use(Crasher),
      ];
      const controller = new AbortController();
      const rich = withContextValue(SECRET_KEY, CONTEXT_SECRET, withAbortSignal(controller.signal, BACKGROUND_CONTEXT));
      await BACKGROUND_CONTEXT.telemetryContext.startSpan({ name: 'ui.session' }, async (span) => {
        const context = withTelemetryContext(span, rich);
        expect(await probe.echo({ nested: [1, 'two', { three: null }] }, context)).toEqual({
          nested: [1, 'two', { three: null }],
        });
        await probe.nothing(context);
        await catalog.select({ provider: 'local', modelId: 'small' }, context);
        await catalog.cycleThinking(context);
        expect(await catalog.refresh(context)).toBe(2);
        expect((await remoteErrorOf(catalog.select({ provider: 'none', modelId: 'x' }, context))).code).toBe(
          'unknown_model',
        );
        expect((await remoteErrorOf(crasher.crash(context))).code).toBe('internal');
        expect((await remoteErrorOf(probe.badResult(context))).code).toBe('invalid_result');
      });
      await nextValue(catalog.state, (value) => value.refresh === 'done');
      const blocked = probe.block('to-cancel', rich);
      const lost = probe.block('to-drop', BACKGROUND_CONTEXT);
      await eventually(() => fixture.stats()[0]?.activeCalls === 2);
      controller.abort();
      expect((await remoteErrorOf(blocked)).code).toBe('cancelled');
      fixture.dropConnections();
      expect((await remoteErrorOf(lost)).code).toBe('disconnected');

      const frames = [...fixture.frames.sent, ...fixture.frames.received];
      expect(frames.length).toBeGreaterThan(20);
      expect(frames.some((frame) => frame.includes('"kind":"event"'))).toBe(true);
      expect(frames.some((frame) => frame.includes('$rpc.cancel'))).toBe(true);
      expect(wireViolations(frames, [SERVER_SECRET, CONTEXT_SECRET, '/home/user'])).toEqual([]);
    } finally {
      telemetry.uninstall();
    }
  });

  it('the wire scan catches what it is meant to catch', () => {
    const signalled = JSON.stringify({ a: [{ abortSignal: {}, telemetryContext: {} }] });
    const stacked = JSON.stringify({ error: { message: 'x', stack: 'Error: x\n    at f (/src/a.ts:1:2)' } });
    expect(wireViolations([signalled])).toHaveLength(2);
    expect(wireViolations([stacked]).length).toBeGreaterThanOrEqual(2);
    expect(wireViolations(['{"a":"s3cret"}'], ['s3cret'])).toHaveLength(1);
    expect(wireViolations(['{"id":1,"result":{"type":"data","data":{"json":{"value":1}}}}'])).toEqual([]);
  });
});
