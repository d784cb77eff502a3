import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { workspaceIdOf } from '@pi/connection-files';
import { SessionDirectory, type SessionDirectoryService, type SessionRecordSummary } from '@pi/session-directory';
import { runProgram, sandboxClients, type ProgramRun } from '@pi/test-support';
import type { RpcClient } from '@pi/transport-trpc';
import type { SoakHome } from './soak-home';

export const COORDINATOR_BIN = fileURLToPath(
  new URL('../../../apps/coordinator/bin/pi-coordinator.mjs', import.meta.url),
);

/** `pi-coordinator <command>` in a soak home, as a user runs it, to its end. */
export function coordinatorCommand(home: SoakHome, command: 'start' | 'stop' | 'status'): Promise<ProgramRun> {
  return runProgram(COORDINATOR_BIN, [command], { cwd: home.root, env: home.env });
}

/** `pi-coordinator start`; rejects with its output when it does not start. */
export async function startCoordinator(home: SoakHome): Promise<void> {
  const run = await coordinatorCommand(home, 'start');
  if (run.code !== 0) throw new Error(`pi-coordinator start exited ${run.code}: ${(run.stdout + run.stderr).trim()}`);
}

/** The running coordinator's pid, from its pid file. */
export function coordinatorPid(home: SoakHome): number | undefined {
  try {
    const pid = Number(readFileSync(home.files.pidFile, 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a coordinator-run session's process runs, and the last lines of its log: for an error that needs them. */
export function sessionDiagnosis(home: SoakHome, sessionId: string): string {
  const pids = home
    .processes()
    .filter((process) => process.sessionId === sessionId)
    .map((process) => process.pid);
  const tail = (file: string) => {
    try {
      const lines = readFileSync(join(home.files.logDir, file), 'utf8').trim().split('\n');
      return lines.slice(-4).join(' / ') || 'empty';
    } catch {
      return 'none';
    }
  };
  const runs = pids.length === 0 ? 'no process runs it' : `pid ${pids.join(', ')} runs it`;
  return `${runs}; its log: ${tail(`${sessionId}.log`)}; the coordinator's: ${tail('coordinator.log')}`;
}

/** The local user's clients of a home's coordinator: its SessionDirectory, over a connection of their own. */
export interface UserDirectory {
  readonly directory: SessionDirectoryService;
  readonly client: RpcClient;
  /** A new session in `cwd`, running once this resolves. */
  create(cwd: string, title: string): Promise<SessionRecordSummary>;
  close(): void;
}

export async function userDirectory(home: SoakHome): Promise<UserDirectory> {
  const clients = sandboxClients(home);
  const client = await clients.coordinator();
  const directory = await client.use(SessionDirectory);
  return {
    directory,
    client,
    create: (cwd, title) => directory.create({ title, workspaceId: workspaceIdOf(cwd), cwd }, BACKGROUND_CONTEXT),
    close: () => clients.closeAll(),
  };
}
