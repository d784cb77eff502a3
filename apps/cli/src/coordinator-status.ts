import { workspaceIdOf } from '@pi/connection-files';
import type { RemoteErrorEnvelope } from '@pi/remote';
import { connectCoordinator, findCoordinator } from './coordinator';

/** `pi status` asks the coordinator briefly: a status must not hang on a coordinator that does not answer. */
const STATUS_TIMEOUT_MS = 5_000;

/** What `pi status` says about the coordinator (its `coordinator` field with --json). */
export type CoordinatorStatus =
  | { readonly running: false }
  /** Its connection file names a live process, but connecting failed (it hangs, or refused the token). */
  | { readonly running: false; readonly pid: number; readonly socketPath: string; readonly error: RemoteErrorEnvelope }
  | {
      readonly running: true;
      readonly pid: number;
      readonly socketPath: string;
      /** Every session record the coordinator keeps, whatever its status. */
      readonly sessions: number;
      /** Those of the directory's workspace. */
      readonly workspaceSessions: number;
    };

/** Whether a coordinator runs for this user and how many sessions it keeps, in all and for `cwd`'s workspace. */
export async function coordinatorStatus(
  dataDir: string | undefined,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<CoordinatorStatus> {
  const found = await findCoordinator(dataDir, env);
  if (found === undefined) return { running: false };
  const connected = await connectCoordinator(dataDir, env, STATUS_TIMEOUT_MS);
  if (connected.isErr()) {
    return { running: false, pid: found.pid, socketPath: found.socketPath, error: connected.error.toEnvelope() };
  }
  const { pid, socketPath, directory } = connected.value;
  const sessions = directory.state.value.sessions;
  const workspaceId = workspaceIdOf(cwd);
  connected.value.close();
  return {
    running: true,
    pid,
    socketPath,
    sessions: sessions.length,
    workspaceSessions: sessions.filter((session) => session.workspaceId === workspaceId).length,
  };
}

/** The `coordinator` row of `pi status`. */
export function coordinatorLine(status: CoordinatorStatus): string {
  if (status.running) {
    const count = `${status.sessions} session${status.sessions === 1 ? '' : 's'}`;
    return `running (pid ${status.pid}) on ${status.socketPath}; ${count}, ${status.workspaceSessions} in this workspace`;
  }
  if ('error' in status) return `not answering (pid ${status.pid}): ${status.error.code}: ${status.error.message}`;
  return 'not running (pi-coordinator start)';
}
