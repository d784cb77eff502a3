import { resolve } from 'node:path';
import { err, ok, type Result } from 'neverthrow';
import {
  coordinatorFiles,
  isRunning,
  piDirectories,
  readCoordinatorConnection,
  type CoordinatorConnection,
} from '@pi/connection-files';
import { coordinatorTokens } from '@pi/coordinator-api';
import { RemoteError, toRemoteError } from '@pi/remote';
import type { SessionDirectoryService } from '@pi/session-directory';
import { createRpcClient, webSocketFactory } from '@pi/transport-trpc';

export const NO_COORDINATOR =
  'no coordinator is running; start it with `pi-coordinator start` (in a pi checkout: `npx pi-coordinator start`)';

/** How long the coordinator may take to accept the token: it runs on this machine, so seconds are plenty. */
const CONNECT_TIMEOUT_MS = 10_000;

/** The local user's connection to the coordinator: its session directory, until `close`. */
export interface CoordinatorClient {
  readonly pid: number;
  readonly socketPath: string;
  readonly directory: SessionDirectoryService;
  close(): void;
}

/**
 * The running coordinator per its connection file (in the runtime directory of `piDirectories`): missing,
 * unreadable, or naming a dead process is no coordinator.
 */
export async function findCoordinator(
  dataDir: string | undefined,
  env: NodeJS.ProcessEnv,
): Promise<CoordinatorConnection | undefined> {
  const files = coordinatorFiles(piDirectories(env, { dataDir: dataDir === undefined ? undefined : resolve(dataDir) }));
  const info = await readCoordinatorConnection(files.connectionFile);
  return info.isOk() && isRunning(info.value.pid) ? info.value : undefined;
}

/**
 * Connects with the user token from the connection file and takes the SessionDirectory. One-shot: no
 * reconnect. No coordinator, or one that does not answer, is `unavailable`; a refused token `not_authorized`.
 */
export async function connectCoordinator(
  dataDir: string | undefined,
  env: NodeJS.ProcessEnv,
  timeoutMs = CONNECT_TIMEOUT_MS,
): Promise<Result<CoordinatorClient, RemoteError>> {
  const found = await findCoordinator(dataDir, env);
  if (found === undefined) return err(new RemoteError('unavailable', NO_COORDINATOR));
  const { socketPath, token, pid } = found;
  const client = createRpcClient({
    socketFactory: webSocketFactory({ socketPath }),
    connectionParams: { token },
    reconnect: false,
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      client.whenConnected(),
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new RemoteError('unavailable', `no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } catch (error) {
    client.close();
    const failure = toRemoteError(error);
    if (failure.code === 'not_authorized') return err(failure);
    return err(
      new RemoteError(
        'unavailable',
        `the coordinator (pid ${pid}) does not answer on ${socketPath}: ${failure.message}`,
      ),
    );
  } finally {
    clearTimeout(timer);
  }
  try {
    const directory = await client.use(coordinatorTokens.SessionDirectory);
    return ok({ pid, socketPath, directory, close: () => client.close() });
  } catch (error) {
    client.close();
    return err(toRemoteError(error));
  }
}
