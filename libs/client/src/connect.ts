import { resolve } from 'node:path';
import { err, ok, type Result } from 'neverthrow';
import { connectionFilePath, findRunningSession, piDirectories, readConnectionFile } from '@pi/connection-files';
import { RemoteError } from '@pi/remote';
import {
  createRpcClient,
  webSocketFactory,
  type ConnectionParamsSource,
  type HeartbeatWindow,
  type ReconnectPolicy,
} from '@pi/transport-trpc';
import { piClient, type FoundSession, type PiClient } from './pi-client';

export type { PiClient } from './pi-client';

/** How the client behaves once it knows where to connect. */
export interface ClientBehaviour {
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

/** An address and its token: the host's Unix socket (what a connection file names), or a ws:// URL. */
export type AddressOptions =
  | { readonly socketPath: string; readonly token: string; readonly url?: never }
  | { readonly url: string; readonly token: string; readonly socketPath?: never };

/** A running session found from its connection file: by id, or the one working in `cwd` (default: the current
 *  directory). The token is read from the file, again before every reconnect. */
export interface DiscoveryOptions {
  readonly session?: string;
  readonly cwd?: string;
  /** Where pi keeps sessions and their connection files (default: $XDG_DATA_HOME/pi). */
  readonly dataDir?: string;
  readonly socketPath?: never;
  readonly url?: never;
  readonly token?: never;
}

export type ConnectOptions = ClientBehaviour & (AddressOptions | DiscoveryOptions);

/**
 * Connects to a host and resolves once the token is accepted. Every expected failure (bad options, refused
 * token, nobody listening in time) is an error value with a stable code.
 */
export async function connect(options: ConnectOptions = {}): Promise<Result<PiClient, RemoteError>> {
  const target = await targetOf(options);
  if (target.isErr()) return err(target.error);
  const { address, params } = target.value;
  const heartbeat = options.heartbeat;
  if (heartbeat !== undefined && heartbeat !== false && !isWindow(heartbeat)) {
    return err(
      new RemoteError('invalid_argument', 'heartbeat.idleMs and heartbeat.timeoutMs must be positive numbers'),
    );
  }
  const client = createRpcClient({
    socketFactory: webSocketFactory(address),
    connectionParams: params,
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
  return ok(piClient(client, target.value.session));
}

function isWindow(window: HeartbeatWindow): boolean {
  return [window.idleMs, window.timeoutMs].every((value) => Number.isFinite(value) && value > 0);
}

interface Target {
  readonly address: { socketPath: string } | { url: string };
  readonly params: ConnectionParamsSource;
  readonly session: FoundSession | null;
}

/** Where to connect and with which token: given outright, or read from the session's connection file. */
async function targetOf(options: ConnectOptions): Promise<Result<Target, RemoteError>> {
  if (options.socketPath !== undefined || options.url !== undefined) {
    const address = addressOf(options as AddressOptions);
    if (address.isErr()) return err(address.error);
    if (typeof options.token !== 'string' || options.token.length === 0) {
      return err(new RemoteError('invalid_argument', 'A token is required with socketPath or url'));
    }
    return ok({ address: address.value, params: { token: options.token }, session: null });
  }
  if (options.token !== undefined) {
    return err(
      new RemoteError(
        'invalid_argument',
        'A token goes with socketPath or url; a session found by id or cwd brings its own',
      ),
    );
  }
  const dataDir = options.dataDir ?? piDirectories(process.env).dataDir;
  const found = await findRunningSession(dataDir, {
    sessionId: options.session,
    cwd: resolve(options.cwd ?? process.cwd()),
  });
  if (found.isErr()) return err(new RemoteError('unavailable', found.error));
  const file = connectionFilePath(dataDir, found.value.sessionId);
  let token = found.value.token;
  // Read before every attempt: a session restarted with --session writes a new token.
  const params = async () => {
    const info = await readConnectionFile(file);
    if (info.isOk()) token = info.value.token;
    return { token };
  };
  const { sessionId, cwd, pid, socketPath, url } = found.value;
  return ok({
    address: { socketPath },
    params,
    session: { sessionId, cwd, pid, socketPath, url, connectionFile: file },
  });
}

function addressOf(options: AddressOptions): Result<{ socketPath: string } | { url: string }, RemoteError> {
  if ((options.socketPath === undefined) === (options.url === undefined)) {
    return err(new RemoteError('invalid_argument', 'Give exactly one of socketPath or url'));
  }
  if (options.socketPath !== undefined) return ok({ socketPath: options.socketPath });
  const url = options.url ?? '';
  if (!/^wss?:\/\//.test(url)) return err(new RemoteError('invalid_argument', `Not a WebSocket URL: ${url}`));
  return ok({ url });
}
