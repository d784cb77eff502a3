import type { SessionUpstream } from '@pi/plugin-api';
import { createRpcClient, webSocketFactory, type RpcClient } from '@pi/transport-trpc';

export interface CoordinatorUpstream extends SessionUpstream {
  /** The one connection to the coordinator, for the host's own calls (presence reports). */
  readonly client: RpcClient;
  close(): void;
}

/**
 * A session's one upstream connection to its coordinator, authenticated by the per-session credential the
 * coordinator handed it. It reconnects for as long as the session runs: a restarted coordinator is found again,
 * and every facet's `use` replica re-hydrates from it.
 */
export function coordinatorUpstream(options: {
  readonly socketPath: string;
  readonly credential: string;
}): CoordinatorUpstream {
  const client = createRpcClient({
    socketFactory: webSocketFactory({ socketPath: options.socketPath }),
    connectionParams: { token: options.credential },
    reconnect: { minDelayMs: 100, maxDelayMs: 2_000 },
  });
  return {
    available: true,
    client,
    connection: client.connection,
    use: (service) => client.use(service),
    close: () => client.close(),
  };
}
