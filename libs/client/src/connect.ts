import { err, ok, type Result } from 'neverthrow';
import { RemoteError } from '@pi/remote';
import {
  createRpcClient,
  webSocketFactory,
  type HeartbeatWindow,
  type ReconnectPolicy,
  type RpcClient,
} from '@pi/transport-trpc';

export interface ConnectOptions {
  /** The host's Unix socket (what a connection file names); or `url` for a loopback TCP port. */
  readonly socketPath?: string;
  readonly url?: string;
  readonly token: string;
  /** Reconnect with backoff after a drop (default), or `false` to stay down. */
  readonly reconnect?: ReconnectPolicy | false;
  /**
   * A host silent for `idleMs` is pinged; with no frame `timeoutMs` later it is declared dead: calls in flight fail
   * with `disconnected` and the client reconnects. Default `DEFAULT_HEARTBEAT` (5 s + 3 s); `false` turns it off.
   */
  readonly heartbeat?: HeartbeatWindow | false;
  /** How long the first connection may take before `connect` gives up (default 10 s). */
  readonly timeoutMs?: number;
}

/** A typed client of one pi host, for internal tools and scripts: typed proxies (`use`, `acquire`), interaction
 *  handlers (`handle`), the connection's state, and `close`. */
export type PiClient = Pick<RpcClient, 'use' | 'acquire' | 'handle' | 'connection' | 'heartbeat' | 'close'>;

/**
 * Connects to a host and resolves once the token is accepted. Every expected failure (bad options, refused
 * token, nobody listening in time) is an error value with a stable code.
 */
export async function connect(options: ConnectOptions): Promise<Result<PiClient, RemoteError>> {
  const address = addressOf(options);
  if (address.isErr()) return err(address.error);
  if (typeof options.token !== 'string' || options.token.length === 0) {
    return err(new RemoteError('invalid_argument', 'A token is required'));
  }
  const heartbeat = options.heartbeat;
  if (heartbeat !== undefined && heartbeat !== false && !isWindow(heartbeat)) {
    return err(
      new RemoteError('invalid_argument', 'heartbeat.idleMs and heartbeat.timeoutMs must be positive numbers'),
    );
  }
  const client = createRpcClient({
    socketFactory: webSocketFactory(address.value),
    connectionParams: { token: options.token },
    reconnect: options.reconnect,
    heartbeat,
  });
  const timeoutMs = options.timeoutMs ?? 10_000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new RemoteError('unavailable', `No host answered within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  try {
    await Promise.race([client.whenConnected(), timeout]);
  } catch (error) {
    client.close();
    return err(error instanceof RemoteError ? error : new RemoteError('unavailable', 'Could not connect'));
  } finally {
    clearTimeout(timer);
  }
  return ok({
    use: (token, context) => client.use(token, context),
    acquire: (token, context) => client.acquire(token, context),
    handle: (interaction, handler) => client.handle(interaction, handler),
    connection: client.connection,
    heartbeat: client.heartbeat,
    close: () => client.close(),
  });
}

function isWindow(window: HeartbeatWindow): boolean {
  return [window.idleMs, window.timeoutMs].every((value) => Number.isFinite(value) && value > 0);
}

function addressOf(options: ConnectOptions): Result<{ socketPath: string } | { url: string }, RemoteError> {
  if ((options.socketPath === undefined) === (options.url === undefined)) {
    return err(new RemoteError('invalid_argument', 'Give exactly one of socketPath or url'));
  }
  if (options.socketPath !== undefined) return ok({ socketPath: options.socketPath });
  const url = options.url ?? '';
  if (!/^wss?:\/\//.test(url)) return err(new RemoteError('invalid_argument', `Not a WebSocket URL: ${url}`));
  return ok({ url });
}
