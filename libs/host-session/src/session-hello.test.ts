import { afterEach, describe, expect, it } from 'vitest';
import { PLUGIN_API_VERSION, pluginApiMismatch } from '@pi/plugin-api';
import { PROTOCOL_VERSION, VERSION_MISMATCH, createRpcClient, type RpcClient } from '@pi/transport-trpc';
import { TRANSPORTS, type TransportKind } from '@pi/test-support';
import { TEST_SESSION_TOKEN, startTestSessionHost, type TestSessionHost } from './testing';

const fixtures: TestSessionHost[] = [];
const clients: RpcClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await Promise.all(fixtures.splice(0).map((fixture) => fixture.close()));
});

async function start(transport: TransportKind) {
  const fixture = await startTestSessionHost({
    transport,
    facets: [
      { id: '@t/first', facet: () => undefined, apiVersion: '2.0' },
      { id: '@t/second', facet: () => undefined },
    ],
  });
  fixtures.push(fixture);
  return fixture;
}

/** A client that checks the session against its own half of `@t/first`, built for `apiVersion`. */
function clientWithFirst(fixture: TestSessionHost, apiVersion: string): RpcClient {
  const own = { pluginApi: PLUGIN_API_VERSION, plugins: [{ id: '@t/first', apiVersion }] };
  const client = createRpcClient({
    socketFactory: fixture.socketFactory,
    connectionParams: { token: TEST_SESSION_TOKEN },
    reconnect: { minDelayMs: 1, maxDelayMs: 1 },
    acceptHost: (hello) => pluginApiMismatch(hello, own),
  });
  clients.push(client);
  return client;
}

describe.each(TRANSPORTS)('the session hello over %s', (transport) => {
  it('names the protocol, the plugin API and each plugin with the API it was built for', async () => {
    const fixture = await start(transport);
    const client = await fixture.connect();
    expect(client.host).toEqual({
      clientId: expect.any(String),
      protocol: PROTOCOL_VERSION,
      pluginApi: PLUGIN_API_VERSION,
      plugins: [{ id: '@t/first', apiVersion: '2.0' }, { id: '@t/second' }],
    });
    expect(pluginApiMismatch(client.host?.pluginApi)).toBeNull();
    expect(pluginApiMismatch(client.host?.pluginApi, '9.0')).toBe(
      `the host runs plugin API ${PLUGIN_API_VERSION}, this pi 9.0`,
    );
  });

  it('is accepted by a client whose half of a plugin was built for the same API major, another minor', async () => {
    const client = clientWithFirst(await start(transport), '2.1');
    await client.whenConnected();
    expect(client.connection.value.status).toBe('connected');
  });

  it('is refused, with one line naming the plugin, by a client whose half of it was built for another major', async () => {
    const client = clientWithFirst(await start(transport), '3.0');
    await expect(client.whenConnected()).rejects.toMatchObject({
      code: VERSION_MISMATCH,
      message:
        'plugin @t/first is built for plugin API 2.0 in the host and 3.0 here; install one version of it for both',
    });
    expect(client.connection.value).toMatchObject({ status: 'disconnected', retrying: false });
  });
});
