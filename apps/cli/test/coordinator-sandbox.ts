import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isRunning } from '@pi/connection-files';
import { createPiSandbox, killSandboxProcesses, runProgram, type ProgramRun } from '@pi/test-support';

const APPS = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The `pi` CLI's bin, run as a user runs it. */
const PI_BIN = join(APPS, 'cli', 'bin', 'pi.mjs');
/** pi-coordinator's bin: run as a process, never imported (the CLI is a presentation). */
const PI_COORDINATOR = join(APPS, 'coordinator', 'bin', 'pi-coordinator.mjs');

/** Process tests wait for real `node` + tsx starts: generous, and never asserted on. */
export const PROCESS_TEST_TIMEOUT_MS = 90_000;

export type Run = ProgramRun;

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
  /** SIGKILL to every process of the sandbox: the coordinator and its sessions (no test here is about their stop). */
  killAll(): Promise<void>;
  remove(): Promise<void>;
}

export async function createCoordinatorSandbox(): Promise<CoordinatorSandbox> {
  const home = await createPiSandbox({ prefix: 'pic-', folders: ['project', 'elsewhere'] });
  const { project, elsewhere } = home.folders;
  const { env } = home;
  const sandbox: CoordinatorSandbox = {
    root: home.root,
    project,
    elsewhere,
    dataDir: home.directories.dataDir,
    runtimeDir: home.directories.runtimeDir,
    env,
    pi: (args, cwd = elsewhere) => runProgram(PI_BIN, args, { cwd, env }),
    coordinator: (args) => runProgram(PI_COORDINATOR, args, { cwd: elsewhere, env }),
    killAll: () => killSandboxProcesses(home),
    remove: home.remove,
  };
  return sandbox;
}

/** Alive and not a zombie: an orphaned coordinator may stay unreaped here (see `isRunning`). */
export function isAlive(pid: number): boolean {
  return isRunning(pid);
}
