import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { BACKGROUND_CONTEXT, type Context } from '@pi/context';
import {
  connectionFilePath,
  coordinatorFiles,
  piDirectories,
  readConnectionFile,
  readCoordinatorConnection,
  workspaceIdOf,
} from '@pi/connection-files';
import { SessionDirectory, type SessionRecordSummary } from '@pi/session-directory';
import { createRpcClient, webSocketFactory, type RpcClient } from '@pi/transport-trpc';

const PI_COORDINATOR_BIN = join(
  dirname(createRequire(import.meta.url).resolve('@pi/coordinator/package.json')),
  'bin',
  'pi-coordinator.mjs',
);
const EXIT_WAIT_MS = 60_000;

/** A real `pi-coordinator run` in the foreground, in a temporary home (XDG data, config, runtime and HOME). */
export interface CoordinatorProcess {
  /** A project directory the sessions can work in. */
  readonly project: string;
  readonly dataDir: string;
  /** What it printed on stdout and stderr so far. */
  output(): string;
  /** As the local user (the token from coordinator.json): a new session in `project`, running once it resolves. */
  createSession(title: string, context?: Context): Promise<SessionRecordSummary>;
  /** A client of a session's own socket, as a presentation connects (socket path and token from its file). */
  connectToSession(sessionId: string): Promise<RpcClient>;
  /** SIGTERM (it stops its sessions first) and its exit; undefined when it has not exited a minute later. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null } | undefined>;
  /** Clients closed, stopped, SIGKILL to anything its files still name, the home removed. Idempotent. */
  [Symbol.asyncDispose](): Promise<void>;
}

/** Starts `pi-coordinator run` with the test's environment on top of a clean one; resolves once it listens. */
export async function startCoordinatorProcess(env: NodeJS.ProcessEnv): Promise<CoordinatorProcess> {
  const root = await mkdtemp(join(tmpdir(), 'pitc-'));
  const project = join(root, 'project');
  await Promise.all([mkdir(project), mkdir(join(root, 'run'), { mode: 0o700 }), mkdir(join(root, 'home'))]);
  const sandbox = {
    XDG_DATA_HOME: join(root, 'data'),
    XDG_CONFIG_HOME: join(root, 'config'),
    XDG_RUNTIME_DIR: join(root, 'run'),
    HOME: join(root, 'home'),
  };
  const directories = piDirectories(sandbox);
  const files = coordinatorFiles(directories);
  const child = spawn(process.execPath, [PI_COORDINATOR_BIN, 'run'], {
    cwd: root,
    env: { ...inheritedEnvironment(), ...sandbox, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const clients: RpcClient[] = [];
  const client = async (socketPath: string, token: string) => {
    const connected = createRpcClient({
      socketFactory: webSocketFactory({ socketPath }),
      connectionParams: { token },
      reconnect: false,
    });
    clients.push(connected);
    await connected.whenConnected();
    return connected;
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    return withinLimit(exited);
  };
  let disposing: Promise<void> | undefined;
  const dispose = () =>
    (disposing ??= (async () => {
      for (const open of clients.splice(0)) open.close();
      await stop();
      const pids = [child.pid, ...pidsNamedIn(files.pidFile, join(directories.dataDir, 'sessions'))];
      for (const pid of new Set(pids)) if (pid !== undefined && isOurs(pid, root)) killGroup(pid);
      await rm(root, { recursive: true, force: true });
    })());

  const listening = await Promise.race([
    new Promise<boolean>((resolve) => {
      const check = () => / listening on /.test(output) && resolve(true);
      child.stdout.on('data', check);
      check();
    }),
    exited.then(() => false),
  ]);
  if (!listening) {
    await dispose();
    throw new Error(`pi-coordinator exited before listening:\n${output}`);
  }
  return {
    project,
    dataDir: directories.dataDir,
    output: () => output,
    async createSession(title, context = BACKGROUND_CONTEXT) {
      const info = (await readCoordinatorConnection(files.connectionFile))._unsafeUnwrap();
      const directory = await (await client(info.socketPath, info.token)).use(SessionDirectory);
      return directory.create({ title, workspaceId: workspaceIdOf(project), cwd: project }, context);
    },
    async connectToSession(sessionId) {
      const info = (await readConnectionFile(connectionFilePath(directories.dataDir, sessionId)))._unsafeUnwrap();
      return client(info.socketPath, info.token);
    },
    stop,
    [Symbol.asyncDispose]: dispose,
  };
}

/** The test's environment without its own OTEL_* settings or vitest's hooks, so only what a test sets applies. */
function inheritedEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(OTEL_|VITEST|NODE_OPTIONS$)/.test(key)));
}

function withinLimit<T>(work: Promise<T>): Promise<T | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), EXIT_WAIT_MS);
    void work.then((value) => {
      clearTimeout(timer);
      resolve(value);
    });
  });
}

/** The coordinator's pid file and the sessions' connection files: what a stop that went wrong may leave running. */
function pidsNamedIn(pidFile: string, sessions: string): number[] {
  const texts = [readText(pidFile)];
  const names = existsSync(sessions) ? readdirSync(sessions) : [];
  for (const name of names.filter((file) => file.endsWith('.connection.json')))
    texts.push(readText(join(sessions, name)));
  return texts.flatMap((text) => [...text.matchAll(/(?:^|"pid":\s*)(\d+)/gm)].map((match) => Number(match[1])));
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** A recycled pid is left alone: on Linux the process must be a pi program of this home. */
function isOurs(pid: number, root: string): boolean {
  if (!existsSync('/proc')) return true;
  const cmdline = readText(`/proc/${pid}/cmdline`);
  return cmdline.includes('pi-coordinator') || cmdline.includes(root);
}

/** SIGKILL to the process group a detached session leads, and to the pid itself; gone already is fine. */
function killGroup(pid: number): void {
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, 'SIGKILL');
    } catch {
      // not a group leader, or gone already
    }
  }
}
