import { err, ok, type Result } from 'neverthrow';
import { RemoteError } from '@pi/remote';
import { createRpcClient, webSocketFactory, type ReconnectPolicy, type RpcClient } from '@pi/transport-trpc';

export interface ConnectOptions {
  /** The host's Unix socket (what a connection file names); or `url` for a loopback TCP port. */
  readonly socketPath?: string;
  readonly url?: string;
  readonly token: string;
  /** Reconnect with backoff after a drop (default), or `false` to stay down. */
  readonly reconnect?: ReconnectPolicy | false;
  /** How long the first connection may take before `connect` gives up (default 10 s). */
  readonly timeoutMs?: number;
}

/** A typed client of one pi host, for internal tools and scripts: typed proxies (`use`, `acquire`), interaction
 *  handlers (`handle`), the connection's state, and `close`. */
export type PiClient = Pick<RpcClient, 'use' | 'acquire' | 'handle' | 'connection' | 'close'>;

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
  const client = createRpcClient({
    socketFactory: webSocketFactory(address.value),
    connectionParams: { token: options.token },
    reconnect: options.reconnect,
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
    close: () => client.close(),
  });
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
