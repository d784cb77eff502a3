import { afterEach, describe, expect, it } from 'vitest';
import { InteractionBroker, ServiceRegistry } from '@pi/remote';
import type { SessionUpstream } from '@pi/plugin-api';
import {
  PROTOCOL_VERSION,
  createRpcClient,
  createRpcHost,
  tokenAuthentication,
  type RpcClient,
} from '@pi/transport-trpc';
import { TRANSPORTS, nextValue, serveHost, type HostTransport, type TransportKind } from '@pi/test-support';
import { startTestSessionHost, type TestSessionHost } from './testing';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A coordinator stand-in; the session's upstream to it declares `protocol` (as a build of another version would). */
async function upstreamTo(transport: TransportKind, protocol: string, token = 'credential') {
  const host = createRpcHost({
    registry: new ServiceRegistry(),
    broker: new InteractionBroker(),
    authenticate: tokenAuthentication('credential', { principal: 'session', claims: {} }),
    keepAlive: false,
  });
  const served: HostTransport = await serveHost(transport, host);
  cleanups.push(() => served.close());
  const client: RpcClient = createRpcClient({
    socketFactory: served.socketFactory,
    connectionParams: { token },
    reconnect: { minDelayMs: 1, maxDelayMs: 1 },
    protocol,
  });
  cleanups.push(() => client.close());
  const upstream: SessionUpstream = { available: true, connection: client.connection, use: (s) => client.use(s) };
  return { client, upstream };
}

async function sessionWith(transport: TransportKind, upstream: SessionUpstream) {
  const log: string[] = [];
  const fixture: TestSessionHost = await startTestSessionHost({
    transport,
    facets: [],
    upstream,
    log: (l) => log.push(l),
  });
  cleanups.push(() => fixture.close());
  return log;
}

describe.each(TRANSPORTS)('a session whose coordinator refuses it, over %s', (transport) => {
  it('logs one line saying why and what to run when the coordinator is another version', async () => {
    const { client, upstream } = await upstreamTo(transport, '9.0');
    const log = await sessionWith(transport, upstream);

    await nextValue(client.connection, (state) => state.status === 'disconnected' && !state.retrying);
    expect(log).toEqual([
      `the coordinator refused this session: the host speaks pi protocol ${PROTOCOL_VERSION}, this pi speaks 9.0; it outlived an upgrade of pi: stop it with \`pi-coordinator stop\` (its sessions stop too) and start pi again`,
    ]);
  });

  it('logs one line when the coordinator refuses its credential', async () => {
    const { client, upstream } = await upstreamTo(transport, PROTOCOL_VERSION, 'forged');
    const log = await sessionWith(transport, upstream);

    await nextValue(client.connection, (state) => state.status === 'disconnected' && !state.retrying);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatch(/^the coordinator refused this session's credential \(.+\); .*`pi-tui --start`$/);
  });

  it('logs nothing while the coordinator accepts it', async () => {
    const { client, upstream } = await upstreamTo(transport, PROTOCOL_VERSION);
    const log = await sessionWith(transport, upstream);

    await client.whenConnected();
    client.close();
    expect(log).toEqual([]);
  });
});
