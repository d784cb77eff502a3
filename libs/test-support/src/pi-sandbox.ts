import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  coordinatorFiles,
  isRunning,
  piDirectories,
  type CoordinatorFiles,
  type PiDirectories,
} from '@pi/connection-files';
import { eventually } from './waiting';

/**
 * What a pi program must not inherit from the test run: its OTEL_* settings (the programs export traces when they
 * are set), vitest's worker variables, and NODE_OPTIONS (the run's loaders and flags). What a test means a program
 * to have, it passes as `env`.
 */
const NOT_INHERITED = /^(OTEL_|VITEST|NODE_OPTIONS$)/;

export interface PiSandboxOptions<Folder extends string> {
  /** The temporary root's name starts with it. */
  readonly prefix: string;
  /** Directories made in the root, e.g. a project for sessions to work in. */
  readonly folders?: readonly Folder[];
  /** Variables set on top of the sandbox's own. */
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * A private temporary home for pi programs: XDG data, config and runtime directories and HOME in `root`, and the
 * test run's environment without what is `NOT_INHERITED`. Everything its programs start is found again through
 * the coordinator's runtime files and the sessions' connection files.
 */
export interface PiSandbox<Folder extends string = string> {
  readonly root: string;
  readonly env: NodeJS.ProcessEnv;
  /** Each folder asked for, by name. */
  readonly folders: Readonly<Record<Folder, string>>;
  /** `<XDG_DATA_HOME>/pi`, `<XDG_CONFIG_HOME>/pi` and `<XDG_RUNTIME_DIR>/pi`. */
  readonly directories: PiDirectories;
  /** The coordinator's socket, pid, lock and connection file, and its log directory. */
  readonly files: CoordinatorFiles;
  /** Removes the root and all in it. */
  remove(): Promise<void>;
}

export async function createPiSandbox<Folder extends string = never>(
  options: PiSandboxOptions<Folder>,
): Promise<PiSandbox<Folder>> {
  const root = await mkdtemp(join(tmpdir(), options.prefix));
  const names = options.folders ?? [];
  const folders = Object.fromEntries(names.map((name) => [name, join(root, name)])) as Record<Folder, string>;
  await Promise.all([
    mkdir(join(root, 'run'), { mode: 0o700 }),
    mkdir(join(root, 'home')),
    ...names.map((name) => mkdir(folders[name], { recursive: true })),
  ]);
  const inherited = Object.entries(process.env).filter(([key]) => !NOT_INHERITED.test(key));
  const env: NodeJS.ProcessEnv = {
    ...Object.fromEntries(inherited),
    XDG_DATA_HOME: join(root, 'data'),
    XDG_CONFIG_HOME: join(root, 'config'),
    XDG_RUNTIME_DIR: join(root, 'run'),
    HOME: join(root, 'home'),
    ...options.env,
  };
  const directories = piDirectories(env);
  return {
    root,
    env,
    folders,
    directories,
    files: coordinatorFiles(directories),
    remove: () => rm(root, { recursive: true, force: true }),
  };
}

type SandboxFiles = Pick<PiSandbox, 'root' | 'directories' | 'files'>;

/**
 * The pids the sandbox's coordinator files (pid, lock, connection) and its sessions' connection files name, and
 * `extraPids`, that still run (a zombie does not: see `isRunning`) and are the sandbox's.
 */
export function sandboxPids(sandbox: SandboxFiles, extraPids: readonly (number | undefined)[] = []): number[] {
  const { pidFile, lockFile, connectionFile } = sandbox.files;
  const sessions = join(sandbox.directories.dataDir, 'sessions');
  const connectionFiles = fileNames(sessions)
    .filter((name) => name.endsWith('.connection.json'))
    .map((name) => join(sessions, name));
  const named = [pidFile, lockFile, connectionFile, ...connectionFiles].flatMap((file) => pidsIn(readText(file)));
  const pids = [...named, ...extraPids].filter((pid): pid is number => pid !== undefined);
  return [...new Set(pids)].filter((pid) => isOurs(pid, sandbox.root));
}

/**
 * The live processes started with the sandbox's environment (its `XDG_RUNTIME_DIR`), found in /proc: every program
 * a test started there and all they started, detached or not, whether a file names it yet or not (a session still
 * starting, a `run` that lost the lock to another). None where there is no /proc to look in.
 */
export function sandboxProcesses(sandbox: Pick<PiSandbox, 'directories'>): number[] {
  if (!existsSync('/proc/self/environ')) return [];
  const marker = `XDG_RUNTIME_DIR=${dirname(sandbox.directories.runtimeDir)}`;
  return fileNames('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => pid !== process.pid && readText(`/proc/${pid}/environ`).split('\0').includes(marker))
    .filter(isRunning);
}

/**
 * SIGKILL to each of `sandboxPids` and `sandboxProcesses`, and to its process group (sessions and a background
 * coordinator lead their own), then waits until none of them runs. A teardown that is not what a test is about
 * uses it rather than a program's own stop, which costs a program start and every session's orderly exit.
 */
export async function killSandboxProcesses(
  sandbox: SandboxFiles,
  extraPids: readonly (number | undefined)[] = [],
): Promise<void> {
  const pids = [...new Set([...sandboxPids(sandbox, extraPids), ...sandboxProcesses(sandbox)])];
  for (const pid of pids) killGroup(pid);
  await eventually(() => pids.every((pid) => !isRunning(pid)));
}

/** A file's text, or '' when it cannot be read. */
export function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** A pid file's first line, or the `pid` fields of a connection file. */
function pidsIn(text: string): number[] {
  return [...text.matchAll(/(?:^|"pid":\s*)(\d+)/gm)].map((match) => Number(match[1]));
}

function fileNames(directory: string): string[] {
  try {
    return existsSync(directory) ? readdirSync(directory) : [];
  } catch {
    return [];
  }
}

/** A recycled pid is left alone: on Linux the process must be a pi program (elsewhere the file is trusted). */
function isOurs(pid: number, root: string): boolean {
  if (!(pid > 0) || pid === process.pid || !isRunning(pid)) return false;
  if (!existsSync('/proc')) return true;
  const cmdline = readText(`/proc/${pid}/cmdline`);
  return cmdline.includes('pi-coordinator') || cmdline.includes(root);
}

function killGroup(pid: number): void {
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, 'SIGKILL');
    } catch {
      // not a group leader, or gone already
    }
  }
}
