import { afterEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { ServiceRegistry } from '@pi/remote';
import {
  CLOSE_CODES,
  NOT_AUTHORIZED_REASON,
  createRpcClient,
  createRpcHost,
  tokenAuthentication,
  type ConnectionLimits,
  type RpcClient,
  type RpcHost,
} from '@pi/transport-trpc';
import {
  FIXTURE_TOKEN,
  Probe,
  TRANSPORTS,
  createProbe,
  eventually,
  serveHost,
  type HostTransport,
} from '@pi/test-support';
import { serveRawSockets, type RawSocket, type RawSocketServer } from './raw-socket';

const HELLO = JSON.stringify({ method: 'connectionParams', data: { token: FIXTURE_TOKEN } });
const ECHO = (id: number) =>
  JSON.stringify({
    id,
    method: 'mutation',
    params: { path: 'probe.echo', input: { json: { a: ['hi'], c: `c${id}` } } },
  });

/** The remote error code of an error frame, or undefined for any other frame. */
function refusalCode(frame: string): unknown {
  if (!frame.startsWith('{')) return undefined;
  return (JSON.parse(frame) as { error?: { json?: { data?: { remote?: { code?: string } } } } }).error?.json?.data
    ?.remote?.code;
}

describe.each(TRANSPORTS)('admission over %s', (kind) => {
  let host: RpcHost;
  let raw: RawSocketServer;
  let served: HostTransport;
  const clients: RpcClient[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    host.close();
    await raw.close();
    await served.close();
  });

  async function start(
    connections: Partial<ConnectionLimits>,
    keepAlive: false | { pingMs: number; pongWaitMs: number },
  ) {
    const registry = new ServiceRegistry();
    registry.provide(Probe, createProbe());
    host = createRpcHost({
      registry,
      authenticate: tokenAuthentication(FIXTURE_TOKEN, { principal: 'fixture-user', claims: {} }),
      keepAlive,
      connections,
    });
    raw = await serveRawSockets(kind, host);
    served = await serveHost(kind, host);
  }

  function connectClient(): RpcClient {
    const client = createRpcClient({
      socketFactory: served.socketFactory,
      connectionParams: { token: FIXTURE_TOKEN },
      reconnect: { minDelayMs: 5, maxDelayMs: 20 },
    });
    clients.push(client);
    return client;
  }

  async function openSilent(): Promise<RawSocket> {
    const socket = raw.open();
    await socket.opened;
    return socket;
  }

  it('refuses a socket that never sends its connection params at the deadline, though it answers every ping', async () => {
    // Pinged every 20 ms and dropped only after 10 s without an answer: the keep-alive alone would keep it forever.
    await start({ authDeadlineMs: 300 }, { pingMs: 20, pongWaitMs: 10_000 });
    const silent = await openSilent();
    silent.onFrame((frame) => frame === 'PING' && silent.sendText('PONG'));

    expect(await silent.closed).toEqual({ code: CLOSE_CODES.notAuthorized, reason: NOT_AUTHORIZED_REASON });
    expect(silent.received[0]).toBe('PING');
    expect(silent.received.map(refusalCode).filter((code) => code !== undefined)).toEqual(['not_authorized']);
  });

  it('refuses one unauthenticated socket more than the cap, while authenticated connections carry on', async () => {
    await start({ maxUnauthenticated: 2 }, false);
    const authenticated = [connectClient(), connectClient(), connectClient()];
    for (const client of authenticated) await client.whenConnected();
    const silent = [await openSilent(), await openSilent()];

    const turnedAway = raw.open();
    expect(await turnedAway.closed).toMatchObject({ code: CLOSE_CODES.tryAgainLater });
    for (const socket of silent) expect(socket.isClosed).toBe(false);
    for (const client of authenticated) {
      const probe = await client.use(Probe);
      expect(await probe.echo('still here', BACKGROUND_CONTEXT)).toBe('still here');
    }

    // Our client takes the refusal as temporary: refused while the places are taken, it gets in once one frees.
    const attemptsBefore = served.attempts;
    const late = connectClient();
    await eventually(() => served.attempts - attemptsBefore >= 2);
    expect(late.connection.value.status).not.toBe('connected');
    silent[0]?.close();
    await late.whenConnected();
  });

  it('refuses a call sent before the connection params as not authorized, with 4401', async () => {
    await start({}, false);
    const early = await openSilent();
    early.sendText(ECHO(1));

    expect(await early.closed).toEqual({ code: CLOSE_CODES.notAuthorized, reason: NOT_AUTHORIZED_REASON });
    expect(early.received.map((frame) => JSON.parse(frame) as { id: unknown })).toMatchObject([
      { id: null },
      { id: 1 },
    ]);
    expect(early.received.map(refusalCode)).toEqual(['not_authorized', 'not_authorized']);
  });

  it('an authenticated socket no longer counts: with a cap of one, sockets that authenticate come in one by one', async () => {
    await start({ maxUnauthenticated: 1 }, false);
    for (const id of [1, 2, 3]) {
      const prompt = await openSilent();
      prompt.sendText(HELLO);
      prompt.sendText(ECHO(id));
      const answer = JSON.parse(await prompt.until((frame) => frame.includes(`"id":${id}`))) as unknown;
      expect(answer).toEqual({ id, result: { type: 'data', data: { json: { value: 'hi' } } } });
    }
  });
});
