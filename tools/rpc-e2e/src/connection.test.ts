import { afterEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import type { ConnectionState } from '@pi/remote';
import { createRpcClient, type RpcClient } from '@pi/transport-trpc';
import {
  FIXTURE_TOKEN,
  Probe,
  TRANSPORTS,
  createProbe,
  nextValue,
  remoteErrorOf,
  serveHost,
  startRpcFixture,
  type HostTransport,
  type RpcFixture,
} from '@pi/test-support';

describe.each(TRANSPORTS)('connection state over %s', (kind) => {
  let fixture: RpcFixture;
  let served: HostTransport;
  let client: RpcClient | undefined;
  afterEach(async () => {
    client?.close();
    client = undefined;
    await served.close();
    await fixture.close();
  });

  async function start(
    reconnect: false | { minDelayMs: number; maxDelayMs: number } = { minDelayMs: 5, maxDelayMs: 40 },
  ) {
    fixture = await startRpcFixture(kind, { provide: (registry) => registry.provide(Probe, createProbe()) });
    served = await serveHost(kind, fixture.host);
    client = createRpcClient({
      socketFactory: served.socketFactory,
      connectionParams: { token: FIXTURE_TOKEN },
      reconnect,
    });
    const seen: ConnectionState[] = [];
    client.connection.subscribe((state) => seen.push(state));
    return { client, seen };
  }

  it('goes connecting → connected → disconnected with a reason → connecting → connected when the server comes back', async () => {
    const { client, seen } = await start();
    await client.whenConnected();
    const probe = await client.use(Probe);

    await served.stop();
    const down = await nextValue(client.connection, (state) => state.status === 'disconnected');
    expect(down).toMatchObject({ status: 'disconnected', retrying: true, reason: { code: 'disconnected' } });
    // While the server is away the client keeps trying, each attempt visible as `connecting`.
    await nextValue(client.connection, (state) => state.status === 'connecting' && state.attempt >= 2);

    await served.restore();
    const up = await nextValue(client.connection, (state) => state.status === 'connected' && state.epoch === 2);
    expect(up).toEqual({ status: 'connected', epoch: 2 });
    expect(await probe.echo('back', BACKGROUND_CONTEXT)).toBe('back');

    const statuses = seen.map((state) => state.status).filter((status, index, all) => status !== all[index - 1]);
    expect(statuses.slice(0, 3)).toEqual(['connecting', 'connected', 'disconnected']);
    expect(statuses.at(-1)).toBe('connected');
    expect(statuses.slice(3, -1).every((status) => status === 'connecting' || status === 'disconnected')).toBe(true);
    expect(seen[0]).toEqual({ status: 'connecting', attempt: 1 });
    expect(seen.find((state) => state.status === 'connected')).toEqual({ status: 'connected', epoch: 1 });
  });

  it('closing the host drops its connections: clients see disconnected and keep retrying, calls fail fast', async () => {
    const { client } = await start();
    const probe = await client.use(Probe);
    fixture.host.close();
    const down = await nextValue(client.connection, (state) => state.status === 'disconnected');
    expect(down).toMatchObject({
      retrying: true,
      reason: { code: 'disconnected', message: expect.stringContaining('host is closed') },
    });
    expect((await remoteErrorOf(probe.echo('gone', BACKGROUND_CONTEXT))).code).toBe('disconnected');
    // A closed host refuses the client's next attempt too.
    const attempts = served.attempts;
    await nextValue(client.connection, (state) => state.status === 'disconnected' && served.attempts > attempts);
    expect(fixture.stats()).toEqual([]);
  });

  it('without reconnect, a lost connection stays down and says so', async () => {
    const { client } = await start(false);
    const probe = await client.use(Probe);
    await served.stop();
    const down = await nextValue(client.connection, (state) => state.status === 'disconnected');
    expect(down).toMatchObject({ retrying: false, reason: { code: 'disconnected' } });
    await served.restore();
    expect((await remoteErrorOf(probe.echo('lost', BACKGROUND_CONTEXT))).code).toBe('disconnected');
    expect((await remoteErrorOf(client.whenConnected())).code).toBe('disconnected');
    expect(served.attempts).toBe(1);
  });

  it('close ends the connection for good: later calls and uses fail with disconnected', async () => {
    const { client } = await start();
    const probe = await client.use(Probe);
    client.close();
    expect(client.connection.value).toMatchObject({ status: 'disconnected', retrying: false });
    expect((await remoteErrorOf(probe.echo('closed', BACKGROUND_CONTEXT))).code).toBe('disconnected');
    expect((await remoteErrorOf(client.use(Probe))).code).toBe('disconnected');
    expect((await remoteErrorOf(client.whenConnected())).code).toBe('disconnected');
  });

  it('a client opened while the server is away connects once it is back', async () => {
    fixture = await startRpcFixture(kind, { provide: (registry) => registry.provide(Probe, createProbe()) });
    served = await serveHost(kind, fixture.host);
    await served.stop();
    client = createRpcClient({
      socketFactory: served.socketFactory,
      connectionParams: { token: FIXTURE_TOKEN },
      reconnect: { minDelayMs: 5, maxDelayMs: 20 },
    });
    const using = client.use(Probe);
    await nextValue(client.connection, (state) => state.status === 'disconnected' && state.retrying);
    await served.restore();
    const probe = await using;
    expect(client.connection.value.status).toBe('connected');
    expect(await probe.echo('late', BACKGROUND_CONTEXT)).toBe('late');
  });
});
