import type { SessionUpstream } from '@pi/plugin-api';
import { createRpcClient, webSocketFactory, type RpcClient, type SocketFactory } from '@pi/transport-trpc';

export interface CoordinatorUpstream extends SessionUpstream {
  /** The one connection to the coordinator, for the host's own calls (presence reports). */
  readonly client: RpcClient;
  close(): void;
}

/**
 * Where the coordinator is: its Unix socket, and/or the URLs of its replicas (`ws:` or `wss:`, a private CA
 * trusted), tried in that order, one per connection attempt.
 */
export interface CoordinatorAddress {
  readonly socketPath?: string;
  readonly urls?: readonly string[];
  readonly ca?: string | undefined;
}

/**
 * A session's one upstream connection to its coordinator, authenticated by the per-session credential the
 * coordinator handed it. It reconnects for as long as the session runs: a restarted coordinator is found again,
 * and every facet's `use` replica re-hydrates from it. Given more than one address, each attempt goes to the next
 * one, so a session whose replica died reconnects to another (the credential verifies on any of them).
 */
export function coordinatorUpstream(
  options: CoordinatorAddress & { readonly credential: string },
): CoordinatorUpstream {
  const client = createRpcClient({
    socketFactory: upstreamSockets(options),
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

function upstreamSockets(address: CoordinatorAddress): SocketFactory {
  const trust = address.ca === undefined ? {} : { ca: address.ca };
  const replicas = [
    ...(address.socketPath === undefined ? [] : [webSocketFactory({ socketPath: address.socketPath })]),
    ...(address.urls ?? []).map((url) => webSocketFactory({ url }, trust)),
  ];
  if (replicas.length === 0) throw new Error('A coordinator upstream needs a socket path or a URL');
  let turn = 0;
  return () => {
    const replica = replicas[turn % replicas.length] as SocketFactory;
    turn += 1;
    return replica();
  };
}
