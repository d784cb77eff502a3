import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isRunning } from '@pi/connection-files';
import { eventually } from '@pi/test-support';

const APPS = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The `pi` CLI's bin, run as a user runs it. */
const PI_BIN = join(APPS, 'cli', 'bin', 'pi.mjs');
/** pi-coordinator's bin: run as a process, never imported (the CLI is a presentation). */
const PI_COORDINATOR = join(APPS, 'coordinator', 'bin', 'pi-coordinator.mjs');

/** Process tests wait for real `node` + tsx starts: generous, and never asserted on. */
export const PROCESS_TEST_TIMEOUT_MS = 90_000;

export interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * A private temporary home (XDG data, config and runtime directories), a project directory and another directory
 * the CLI runs from, so every command has to find the project through --cwd.
 */
export interface CoordinatorSandbox {
  readonly root: string;
  readonly project: string;
  readonly elsewhere: string;
  /** `<XDG_DATA_HOME>/pi`: session files, their connection files, logs. */
  readonly dataDir: string;
  /** `<XDG_RUNTIME_DIR>/pi`: the coordinator's socket, pid, lock and connection file. */
  readonly runtimeDir: string;
  readonly env: NodeJS.ProcessEnv;
  /** `pi <args>` run from `cwd` (default: the other directory). */
  pi(args: readonly string[], cwd?: string): Promise<Run>;
  coordinator(args: readonly string[]): Promise<Run>;
  /** `pi-coordinator stop`, then SIGKILL to whatever this sandbox's pid and connection files still name. */
  killAll(): Promise<void>;
  remove(): Promise<void>;
}

export async function createCoordinatorSandbox(): Promise<CoordinatorSandbox> {
  const root = await mkdtemp(join(tmpdir(), 'pic-'));
  const project = join(root, 'project');
  const elsewhere = join(root, 'elsewhere');
  await Promise.all([mkdir(project), mkdir(elsewhere), mkdir(join(root, 'run'), { mode: 0o700 })]);
  const env = {
    ...process.env,
    XDG_DATA_HOME: join(root, 'data'),
    XDG_CONFIG_HOME: join(root, 'config'),
    XDG_RUNTIME_DIR: join(root, 'run'),
  };
  const sandbox: CoordinatorSandbox = {
    root,
    project,
    elsewhere,
    dataDir: join(root, 'data', 'pi'),
    runtimeDir: join(root, 'run', 'pi'),
    env,
    pi: (args, cwd = elsewhere) => run(PI_BIN, args, cwd, env),
    coordinator: (args) => run(PI_COORDINATOR, args, elsewhere, env),
    async killAll() {
      await sandbox.coordinator(['stop']).catch(() => undefined);
      const pids = await sandboxPids(sandbox);
      for (const pid of pids) kill(pid);
      await eventually(() => pids.every((pid) => !isAlive(pid)));
    },
    remove: () => rm(root, { recursive: true, force: true }),
  };
  return sandbox;
}

function run(bin: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Run> {
  const child = spawn(process.execPath, [bin, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolveRun) => child.once('close', (code) => resolveRun({ code, stdout, stderr })));
}

/** Every pid the sandbox's coordinator and session files name that still runs one of its processes. */
async function sandboxPids(sandbox: CoordinatorSandbox): Promise<number[]> {
  const texts = await Promise.all(
    ['coordinator.pid', 'coordinator.lock', 'coordinator.json'].map((name) => readText(join(sandbox.runtimeDir, name))),
  );
  const sessions = join(sandbox.dataDir, 'sessions');
  const names = await readdir(sessions).catch(() => [] as string[]);
  for (const name of names.filter((file) => file.endsWith('.connection.json'))) {
    texts.push(await readText(join(sessions, name)));
  }
  const pids = texts.flatMap((text) => [...text.matchAll(/(?:^|"pid":\s*)(\d+)/gm)].map((match) => Number(match[1])));
  const ours = await Promise.all(pids.map(async (pid) => ((await isOurs(pid, sandbox.root)) ? pid : 0)));
  return [...new Set(ours.filter((pid) => pid > 0))];
}

/** A recycled pid is left alone: on Linux the process must be a pi program (elsewhere we trust the file). */
async function isOurs(pid: number, root: string): Promise<boolean> {
  if (!isAlive(pid)) return false;
  const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => undefined);
  return cmdline === undefined || cmdline.includes('pi-coordinator') || cmdline.includes(root);
}

function kill(pid: number): void {
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

function readText(path: string): Promise<string> {
  return readFile(path, 'utf8').catch(() => '');
}
