import { hasEnded, readProcessStatSync } from '@pi/connection-files/process-stat';

/** Sends `signal` to `pid`; false when there is no such process (or no permission to signal it). */
export function sendSignal(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * SIGKILL to the process group a detached session leads, so its tool subprocesses go with it; to the pid alone
 * when it leads no group (a process that was not started detached).
 */
export function killProcessGroup(pid: number): void {
  if (!sendSignal(-pid, 'SIGKILL')) sendSignal(pid, 'SIGKILL');
}

/** What tells this process apart from a later one that reuses its pid (Linux); undefined where unknown. */
export function processStartTime(pid: number): string | undefined {
  const startTicks = readProcessStatSync(pid)?.startTicks;
  return startTicks === undefined ? undefined : String(startTicks);
}

/**
 * Whether `pid` runs: a zombie does not, nor a process whose start time differs from `startTime` (the pid was
 * reused). Without /proc, whether it can be signalled.
 */
export function isProcessAlive(pid: number, startTime?: string): boolean {
  const stat = readProcessStatSync(pid);
  if (stat !== undefined) return !hasEnded(stat) && (startTime === undefined || String(stat.startTicks) === startTime);
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
