import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { connectionFilePath, isRunning, workspaceIdOf, type CoordinatorFiles } from '@pi/connection-files';
import type { SessionDirectoryService, SessionRecordSummary } from '@pi/session-directory';
import { SessionDirectory } from '@pi/session-directory';
import {
  createPiSandbox,
  killSandboxProcesses,
  readText,
  runProgram,
  sandboxClients,
  sandboxProcesses,
  startProgram,
  type PiSandbox,
  type ProgramExit,
  type ProgramRun,
} from '@pi/test-support';
import type { RpcClient } from '@pi/transport-trpc';

export { readText } from '@pi/test-support';

const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'pi-coordinator.mjs');

/** Process tests wait for real `node` + tsx starts and session processes: generous, and never asserted on. */
export const PROCESS_TEST_TIMEOUT_MS = 120_000;

export type Run = ProgramRun;

/** A `pi-coordinator run` in the foreground: what it printed so far, and its exit. */
export interface ForegroundCoordinator {
  readonly child: ChildProcess;
  stdout(): string;
  readonly exited: Promise<ProgramExit>;
}

/**
 * A private temporary home for a coordinator (XDG data, config and runtime directories) and a project directory
 * its sessions work in. Everything it starts is found again through its pid, lock and connection files.
 */
export interface CoordinatorSandbox {
  readonly root: string;
  readonly project: string;
  readonly env: NodeJS.ProcessEnv;
  /** `<XDG_DATA_HOME>/pi`. */
  readonly dataDir: string;
  /** Socket, pid, lock and connection file, in `<XDG_RUNTIME_DIR>/pi`; the log in `<data>/logs`. */
  readonly files: CoordinatorFiles;
  coordinator(args: readonly string[]): Promise<Run>;
  /** `pi-coordinator run` with these further flags. */
  runInForeground(flags?: readonly string[]): ForegroundCoordinator;
  /** The coordinator's output when `start` runs it in the background. */
  log(): string;
  /** The SessionDirectory of the running coordinator, as the local user (the token from its connection file). */
  directory(): Promise<{ directory: SessionDirectoryService; client: RpcClient }>;
  /** A new session in the project directory, running once this resolves. */
  createSession(directory: SessionDirectoryService, title?: string): Promise<SessionRecordSummary>;
  /**
   * The `pi-coordinator run` processes of this sandbox now alive (found by their environment in /proc); undefined
   * where there is no /proc to look in.
   */
  coordinatorProcesses(): number[] | undefined;
  /** The pid a session's connection file names, or undefined without one. */
  sessionPid(sessionId: string): number | undefined;
  /**
   * Closes the clients and SIGKILLs every process of the sandbox (not `pi-coordinator stop`: the tests of a stop run
   * it themselves), then removes it.
   */
  cleanUp(): Promise<void>;
}

export async function createCoordinatorSandbox(): Promise<CoordinatorSandbox> {
  const home = await createPiSandbox({ prefix: 'pco-', folders: ['project'] });
  const { root, env, files } = home;
  const { project } = home.folders;
  const clients = sandboxClients(home);
  const foreground: ChildProcess[] = [];
  const coordinator = (args: readonly string[]) => runProgram(BIN, args, { cwd: root, env });
  return {
    root,
    project,
    env,
    dataDir: home.directories.dataDir,
    files,
    coordinator,
    runInForeground(flags = []) {
      const started = startProgram(BIN, ['run', ...flags], { cwd: root, env });
      foreground.push(started.child);
      return { child: started.child, stdout: started.output, exited: started.exited };
    },
    log: () => readText(join(files.logDir, 'coordinator.log')),
    async directory() {
      const client = await clients.coordinator();
      return { directory: await client.use(SessionDirectory), client };
    },
    createSession: (directory, title = 'a test session') =>
      directory.create({ title, workspaceId: workspaceIdOf(project), cwd: project }, BACKGROUND_CONTEXT),
    coordinatorProcesses: () => coordinatorProcesses(home),
    sessionPid(sessionId) {
      const text = readText(connectionFilePath(home.directories.dataDir, sessionId));
      return text === '' ? undefined : (JSON.parse(text) as { pid: number }).pid;
    },
    async cleanUp() {
      clients.closeAll();
      await killSandboxProcesses(
        home,
        foreground.splice(0).map((child) => child.pid),
      );
      await home.remove();
    },
  };
}

function coordinatorProcesses(home: PiSandbox): number[] | undefined {
  if (!existsSync('/proc/self/environ')) return undefined;
  return sandboxProcesses(home).filter((pid) => {
    const cmdline = readText(`/proc/${pid}/cmdline`).split('\0');
    return cmdline.some((arg) => arg.endsWith('pi-coordinator.mjs')) && cmdline.includes('run');
  });
}

/** Alive and not a zombie: an orphaned coordinator may stay unreaped here (see `isRunning`). */
export function isAlive(pid: number): boolean {
  return isRunning(pid);
}

/** A pid no process has: a short-lived child's, after it exited. */
export async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await new Promise((resolveExit) => child.once('exit', resolveExit));
  return child.pid ?? 0;
}
