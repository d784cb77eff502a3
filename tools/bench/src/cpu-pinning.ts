import { execFile } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Runs `work` with the given processes (the bench and one server) on one CPU, then gives them every CPU back.
 *
 * A sequential call is mostly two wake-ups, and on this 2-vCPU VM a wake-up on the other CPU costs about 30 µs more
 * than one on the same CPU: round medians of every system fell into two groups (~23 and ~60 µs for raw `ws`), at
 * random per round, which decided the ratios more than the code did. On one CPU each system's latency is its own
 * work plus two same-CPU switches, the same for all of them. Without `taskset` (not Linux) `work` runs unpinned
 * and `pinned` says so.
 */
export async function onOneCpu<T>(
  pids: readonly number[],
  work: () => Promise<T>,
): Promise<{ result: T; pinned: boolean }> {
  const pinned = await setAffinity(pids, '0');
  try {
    return { result: await work(), pinned };
  } finally {
    if (pinned) await setAffinity(pids, `0-${availableParallelism() - 1}`);
  }
}

async function setAffinity(pids: readonly number[], cpus: string): Promise<boolean> {
  try {
    for (const pid of pids) await run('taskset', ['-a', '-cp', cpus, String(pid)]);
    return true;
  } catch {
    return false;
  }
}
