import { readFileSync } from 'node:fs';

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

/** Field 22 of /proc/<pid>/stat (start time in clock ticks since boot) and field 3 (state); undefined without /proc. */
function procStat(pid: number): { readonly state: string; readonly startTime: string } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may itself hold spaces and parentheses.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  const startTime = fields[19];
  return state === undefined || startTime === undefined ? undefined : { state, startTime };
}

/** What tells this process apart from a later one that reuses its pid (Linux); undefined where unknown. */
export function processStartTime(pid: number): string | undefined {
  return procStat(pid)?.startTime;
}

/**
 * Whether `pid` runs: a zombie does not, nor a process whose start time differs from `startTime` (the pid was
 * reused). Without /proc, whether it can be signalled.
 */
export function isProcessAlive(pid: number, startTime?: string): boolean {
  const stat = procStat(pid);
  if (stat !== undefined) return stat.state !== 'Z' && (startTime === undefined || stat.startTime === startTime);
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
