import { performance } from 'node:perf_hooks';

/** Whether a process with this pid still runs (signal 0 checks without sending anything). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM to each, then SIGKILL to those still running after `graceMs`; resolves once none runs. */
export async function stopProcesses(pids: readonly number[], graceMs = 3000): Promise<void> {
  const signal = (name: NodeJS.Signals) => {
    for (const pid of pids.filter(isAlive)) {
      try {
        process.kill(pid, name);
      } catch {
        // It ended between the check and the signal: nothing to stop.
      }
    }
  };
  signal('SIGTERM');
  await until(() => !pids.some(isAlive), graceMs);
  signal('SIGKILL');
  await until(() => !pids.some(isAlive), graceMs);
}

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition() && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}
