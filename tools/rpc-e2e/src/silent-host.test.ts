import { afterEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
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
  type HostCatalog,
  type HostTransport,
  type RpcFixture,
} from '@pi/test-support';
import { silenceableHost, type SilenceableHost } from './silent-host';

const HEARTBEAT = { idleMs: 100, timeoutMs: 100 };

describe.each(TRANSPORTS)('a host that stops answering, over %s', (kind) => {
  let fixture: RpcFixture;
  let served: HostTransport;
  let switchable: SilenceableHost;
  let client: RpcClient | undefined;
  let catalog: HostCatalog;
  afterEach(async () => {
    switchable.resume();
    client?.close();
    client = undefined;
    await served.close();
    await fixture.close();
  });

  async function start(heartbeat: typeof HEARTBEAT | false = HEARTBEAT) {
    catalog = createCatalog();
    fixture = await startRpcFixture(kind, {
      provide: (registry) => {
        registry.provide(Probe, createProbe());
        registry.provide(Catalog, catalog);
      },
    });
    switchable = silenceableHost(fixture.host);
    served = await serveHost(kind, switchable.host);
    client = createRpcClient({
      socketFactory: served.socketFactory,
      connectionParams: { token: FIXTURE_TOKEN },
      reconnect: { minDelayMs: 5, maxDelayMs: 40 },
      heartbeat,
    });
    return { client, probe: await client.use(Probe), replica: await client.use(Catalog) };
  }

  it('is declared dead after the heartbeat window: the call in flight fails, new calls fail at once', async () => {
    const { client, probe } = await start();
    switchable.silence();
    const inFlight = probe.echo('held', BACKGROUND_CONTEXT);
    const down = await nextValue(client.connection, (state) => state.status === 'disconnected');

    expect(down).toMatchObject({ retrying: true, reason: { code: 'disconnected', message: expect.any(String) } });
    expect((await remoteErrorOf(inFlight)).code).toBe('disconnected');
    expect(client.connection.value.status).not.toBe('connected');
    expect((await remoteErrorOf(probe.echo('while down', BACKGROUND_CONTEXT))).code).toBe('disconnected');
  });

  it('once the host answers again the client reconnects and its replica catches up on what changed meanwhile', async () => {
    const { client, probe, replica } = await start();
    const before = replica.state.value.thinkingLevel;
    switchable.silence();
    await nextValue(client.connection, (state) => state.status === 'disconnected');
    await catalog.cycleThinking(BACKGROUND_CONTEXT);
    const changed = catalog.state.value.thinkingLevel;
    expect(changed).not.toBe(before);

    switchable.resume();
    await nextValue(client.connection, (state) => state.status === 'connected' && state.epoch === 2);
    await nextValue(replica.state, (state) => state.thinkingLevel === changed);
    expect(await probe.echo('back', BACKGROUND_CONTEXT)).toBe('back');
  });

  it('a host that keeps answering pings is never dropped, however long it has nothing to say', async () => {
    const { client, probe } = await start();
    const statuses: string[] = [];
    client.connection.subscribe((state) => statuses.push(state.status));
    const count = (frames: readonly string[], word: string) => frames.filter((frame) => frame === word).length;
    // Several quiet periods, each ended by the client's PING and the host's PONG.
    await eventually(() => count(served.frames.received, 'PONG') >= 3);
    expect(count(served.frames.sent, 'PING')).toBeGreaterThanOrEqual(3);
    expect(statuses).toEqual(['connected']);
    expect(await probe.echo('still here', BACKGROUND_CONTEXT)).toBe('still here');
  });

  it('with the heartbeat off, a silent host keeps the client connected (the old behaviour, by choice)', async () => {
    const { client } = await start(false);
    switchable.silence();
    await new Promise((resolve) => setTimeout(resolve, (HEARTBEAT.idleMs + HEARTBEAT.timeoutMs) * 3));
    expect(client.connection.value).toEqual({ status: 'connected', epoch: 1 });
    expect(client.heartbeat).toBe(false);
  });
});
