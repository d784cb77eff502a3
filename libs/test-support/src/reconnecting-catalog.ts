import { createRpcClient, type RpcClient } from '@pi/transport-trpc';
import { Catalog } from './fixture-services';
import { createCatalog, type HostCatalog } from './fixture-providers';
import { serveHost, type HostTransport } from './host-transport';
import { FIXTURE_TOKEN, startRpcFixture, type RpcFixture, type TransportKind } from './rpc-fixture';

/** A catalog host whose server can be stopped and brought back, with one client that reconnects quickly. */
export interface ReconnectingCatalog {
  readonly catalog: HostCatalog;
  readonly fixture: RpcFixture;
  readonly served: HostTransport;
  readonly client: RpcClient;
  close(): Promise<void>;
}

export async function startReconnectingCatalog(kind: TransportKind): Promise<ReconnectingCatalog> {
  const catalog = createCatalog();
  const fixture = await startRpcFixture(kind, { provide: (registry) => registry.provide(Catalog, catalog) });
  const served = await serveHost(kind, fixture.host);
  const client = createRpcClient({
    socketFactory: served.socketFactory,
    connectionParams: { token: FIXTURE_TOKEN },
    reconnect: { minDelayMs: 5, maxDelayMs: 20 },
  });
  return {
    catalog,
    fixture,
    served,
    client,
    async close() {
      client.close();
      await served.close();
      await fixture.close();
    },
  };
}
