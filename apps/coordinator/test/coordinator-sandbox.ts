import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BACKGROUND_CONTEXT } from '@pi/context';
import {
  connectionFilePath,
  coordinatorFiles,
  piDirectories,
  readCoordinatorConnection,
  workspaceIdOf,
  type CoordinatorFiles,
  isRunning,
} from '@pi/connection-files';
import type { SessionDirectoryService, SessionRecordSummary } from '@pi/session-directory';
import { SessionDirectory } from '@pi/session-directory';
import { eventually } from '@pi/test-support';
import { createRpcClient, webSocketFactory, type RpcClient } from '@pi/transport-trpc';

const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'pi-coordinator.mjs');

/** Process tests wait for real `node` + tsx starts and session processes: generous, and never asserted on. */
export const PROCESS_TEST_TIMEOUT_MS = 120_000;

export interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A `pi-coordinator run` in the foreground: what it printed so far, and its exit. */
export interface ForegroundCoordinator {
  readonly child: ChildProcess;
  stdout(): string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
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
  runInForeground(): ForegroundCoordinator;
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
  /** Closes the clients, `pi-coordinator stop`, then SIGKILL to whatever the sandbox's files still name. */
  cleanUp(): Promise<void>;
}

export async function createCoordinatorSandbox(): Promise<CoordinatorSandbox> {
  const root = await mkdtemp(join(tmpdir(), 'pco-'));
  const project = join(root, 'project');
  await Promise.all([mkdir(project), mkdir(join(root, 'run'), { mode: 0o700 })]);
  const env = {
    ...process.env,
    XDG_DATA_HOME: join(root, 'data'),
    XDG_CONFIG_HOME: join(root, 'config'),
    XDG_RUNTIME_DIR: join(root, 'run'),
  };
  const directories = piDirectories(env);
  const files = coordinatorFiles(directories);
  const clients: RpcClient[] = [];
  const foreground: ChildProcess[] = [];
  const sandbox: CoordinatorSandbox = {
    root,
    project,
    env,
    dataDir: directories.dataDir,
    files,
    coordinator: (args) => run(args, root, env),
    runInForeground() {
      const started = runInForeground(root, env);
      foreground.push(started.child);
      return started;
    },
    log: () => readText(join(files.logDir, 'coordinator.log')),
    async directory() {
      const info = (await readCoordinatorConnection(files.connectionFile))._unsafeUnwrap();
      const client = createRpcClient({
        socketFactory: webSocketFactory({ socketPath: info.socketPath }),
        connectionParams: { token: info.token },
        reconnect: false,
      });
      clients.push(client);
      await client.whenConnected();
      return { directory: await client.use(SessionDirectory), client };
    },
    createSession: (directory, title = 'a test session') =>
      directory.create({ title, workspaceId: workspaceIdOf(project), cwd: project }, BACKGROUND_CONTEXT),
    coordinatorProcesses: () => coordinatorProcesses(env['XDG_RUNTIME_DIR'] ?? ''),
    sessionPid(sessionId) {
      const text = readText(connectionFilePath(directories.dataDir, sessionId));
      return text === '' ? undefined : (JSON.parse(text) as { pid: number }).pid;
    },
    async cleanUp() {
      for (const client of clients.splice(0)) client.close();
      await run(['stop'], root, env).catch(() => undefined);
      const pids = sandboxPids(sandbox, foreground.splice(0));
      for (const pid of pids) kill(pid);
      await eventually(() => pids.every((pid) => !isAlive(pid)));
      await rm(root, { recursive: true, force: true });
    },
  };
  return sandbox;
}

function run(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Run> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolveRun) => child.once('close', (code) => resolveRun({ code, stdout, stderr })));
}

function runInForeground(cwd: string, env: NodeJS.ProcessEnv): ForegroundCoordinator {
  const child = spawn(process.execPath, [BIN, 'run'], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveExit) =>
    child.once('exit', (code, signal) => resolveExit({ code, signal })),
  );
  return { child, stdout: () => stdout, exited };
}

/** Every live pid the sandbox's runtime and session connection files name, and its foreground coordinators. */
function sandboxPids(sandbox: CoordinatorSandbox, foreground: readonly ChildProcess[]): number[] {
  const { pidFile, lockFile, connectionFile } = sandbox.files;
  const texts = [pidFile, lockFile, connectionFile].map(readText);
  const sessions = join(sandbox.dataDir, 'sessions');
  const names = existsSync(sessions) ? readdirSync(sessions) : [];
  for (const name of names.filter((file) => file.endsWith('.connection.json')))
    texts.push(readText(join(sessions, name)));
  const pids = texts.flatMap((text) => [...text.matchAll(/(?:^|"pid":\s*)(\d+)/gm)].map((match) => Number(match[1])));
  pids.push(...foreground.flatMap((child) => (child.pid === undefined ? [] : [child.pid])));
  return [...new Set(pids)].filter((pid) => isOurs(pid, sandbox.root));
}

function coordinatorProcesses(runtimeDir: string): number[] | undefined {
  if (!existsSync('/proc/self/environ')) return undefined;
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      const cmdline = readText(`/proc/${pid}/cmdline`).split('\0');
      const environ = readText(`/proc/${pid}/environ`).split('\0');
      return (
        cmdline.some((arg) => arg.endsWith('pi-coordinator.mjs')) &&
        cmdline.includes('run') &&
        environ.includes(`XDG_RUNTIME_DIR=${runtimeDir}`)
      );
    });
}

/** A recycled pid is left alone: on Linux the process must be a pi program (elsewhere the file is trusted). */
function isOurs(pid: number, root: string): boolean {
  if (!(pid > 0) || !isAlive(pid)) return false;
  const cmdline = readText(`/proc/${pid}/cmdline`);
  return !existsSync('/proc') || cmdline.includes('pi-coordinator') || cmdline.includes(root);
}

function kill(pid: number): void {
  // Sessions and a background coordinator lead their own process groups.
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, 'SIGKILL');
    } catch {
      // not a group leader, or gone already
    }
  }
}

/** Alive and not a zombie: an orphaned coordinator may stay unreaped here (see `isRunning`). */
export function isAlive(pid: number): boolean {
  return isRunning(pid);
}

export function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** A pid no process has: a short-lived child's, after it exited. */
export async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await new Promise((resolveExit) => child.once('exit', resolveExit));
  return child.pid ?? 0;
}
