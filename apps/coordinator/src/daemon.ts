import { spawn } from 'node:child_process';
import { mkdir, open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  isRunning,
  readCoordinatorConnection,
  readPidFile,
  type CoordinatorConnection,
  type CoordinatorFiles,
} from '@pi/connection-files';
import { isSocketAnswering } from '@pi/transport-trpc';
import { COORDINATOR_NODE_FLAGS, nodeArguments } from './node-flags';

const START_WAIT_MS = 20_000;
const STOP_WAIT_MS = 20_000;
const POLL_MS = 50;

/** The coordinator that runs now, if one does: its connection file names a live pid whose socket answers. */
export async function runningCoordinator(files: CoordinatorFiles): Promise<CoordinatorConnection | undefined> {
  const info = await readCoordinatorConnection(files.connectionFile);
  if (info.isErr() || !isRunning(info.value.pid)) return undefined;
  return (await isSocketAnswering(info.value.socketPath)) ? info.value : undefined;
}

/**
 * Starts `pi-coordinator run` in the background (its own session, output to a log file) and resolves once it
 * answers, or with the reason it did not: the last lines of its log.
 */
export async function startInBackground(
  files: CoordinatorFiles,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<{ running: CoordinatorConnection } | { failed: string }> {
  await mkdir(files.logDir, { recursive: true, mode: 0o700 });
  const logPath = join(files.logDir, 'coordinator.log');
  const log = await open(logPath, 'a', 0o600);
  const node = nodeArguments(COORDINATOR_NODE_FLAGS, process.execArgv, env['NODE_OPTIONS']);
  const child = spawn(process.execPath, [...node, process.argv[1] ?? '', 'run', ...args], {
    detached: true,
    stdio: ['ignore', log.fd, log.fd],
    env,
  });
  await log.close();
  let exited = false;
  child.once('exit', () => (exited = true));
  child.once('error', () => (exited = true));
  const deadline = Date.now() + START_WAIT_MS;
  while (Date.now() < deadline) {
    const running = await runningCoordinator(files);
    // Another start may have won the race: whichever coordinator answers is the one.
    if (running !== undefined) {
      child.unref();
      return { running };
    }
    // Our child lost the lock to another start: wait for the winner while it lives, rather than fail.
    if (exited && !(await lockHeldByAnother(files.lockFile, child.pid))) break;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  if (!exited) child.kill('SIGTERM');
  const tail = (await readFile(logPath, 'utf8').catch(() => '')).trim().split('\n').slice(-3).join(' / ');
  return { failed: tail === '' ? 'it did not start in time' : tail };
}

async function lockHeldByAnother(lockFile: string, ours: number | undefined): Promise<boolean> {
  const owner = await readPidFile(lockFile);
  return owner !== undefined && owner !== ours && isRunning(owner);
}

/** Sends SIGTERM to the running coordinator and waits for it to exit. */
export async function stopRunning(
  files: CoordinatorFiles,
): Promise<{ outcome: 'not_running' } | { outcome: 'stopped' | 'still_running'; pid: number }> {
  const info = await readCoordinatorConnection(files.connectionFile);
  if (info.isErr() || !isRunning(info.value.pid)) return { outcome: 'not_running' };
  const pid = info.value.pid;
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + STOP_WAIT_MS;
  while (Date.now() < deadline && isRunning(pid)) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return { outcome: isRunning(pid) ? 'still_running' : 'stopped', pid };
}
