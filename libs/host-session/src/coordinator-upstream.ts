import type { SessionUpstream } from '@pi/plugin-api';
import { createRpcClient, webSocketFactory, type RpcClient, type SocketFactory } from '@pi/transport-trpc';

export interface CoordinatorUpstream extends SessionUpstream {
  /** The one connection to the coordinator, for the host's own calls (presence reports). */
  readonly client: RpcClient;
  /**
   * Adds replicas the coordinator named while connected (`wss:` URLs not known yet, trusted with the same CA), tried
   * after the given addresses; at most `MAX_LEARNED_REPLICAS`. None is ever dropped: a dead one only fails its turn.
   * Returns the URLs it had not known.
   */
  learnReplicas(urls: readonly string[]): readonly string[];
  close(): void;
}

export const MAX_LEARNED_REPLICAS = 32;

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
  const sockets = upstreamSockets(options);
  const client = createRpcClient({
    socketFactory: sockets.next,
    connectionParams: { token: options.credential },
    reconnect: { minDelayMs: 100, maxDelayMs: 2_000 },
  });
  return {
    available: true,
    client,
    learnReplicas: sockets.learn,
    connection: client.connection,
    use: (service) => client.use(service),
    close: () => client.close(),
  };
}

function upstreamSockets(address: CoordinatorAddress): {
  next: SocketFactory;
  learn(urls: readonly string[]): readonly string[];
} {
  const trust = address.ca === undefined ? {} : { ca: address.ca };
  const known = new Set(address.urls ?? []);
  const given = known.size;
  const replicas = [
    ...(address.socketPath === undefined ? [] : [webSocketFactory({ socketPath: address.socketPath })]),
    ...[...known].map((url) => webSocketFactory({ url }, trust)),
  ];
  if (replicas.length === 0) throw new Error('A coordinator upstream needs a socket path or a URL');
  let turn = 0;
  return {
    next: () => {
      const replica = replicas[turn % replicas.length] as SocketFactory;
      turn += 1;
      return replica();
    },
    learn: (urls) => {
      const added: string[] = [];
      for (const url of urls) {
        if (known.has(url) || known.size - given >= MAX_LEARNED_REPLICAS || !/^wss?:\/\//.test(url)) continue;
        known.add(url);
        added.push(url);
        replicas.push(webSocketFactory({ url }, trust));
      }
      return added;
    },
  };
}
