import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Runs `work` with the given processes (the bench and one server) on one CPU, then gives each back the CPUs it had.
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
  const previous = await affinities(pids);
  const pinned = previous !== undefined && (await setAffinities(pids.map((pid) => [pid, '0'])));
  try {
    return { result: await work(), pinned };
  } finally {
    if (previous !== undefined) await setAffinities(previous);
  }
}

/** Each process's CPU list as `taskset` prints it (e.g. `0,1` or `0-3`); undefined without `taskset`. */
async function affinities(pids: readonly number[]): Promise<Array<[number, string]> | undefined> {
  try {
    const lists: Array<[number, string]> = [];
    for (const pid of pids) {
      const { stdout } = await run('taskset', ['-cp', String(pid)]);
      const list = stdout.split(':').pop()?.trim();
      if (list === undefined || list === '') return undefined;
      lists.push([pid, list]);
    }
    return lists;
  } catch {
    return undefined;
  }
}

async function setAffinities(lists: ReadonlyArray<readonly [number, string]>): Promise<boolean> {
  try {
    for (const [pid, list] of lists) await run('taskset', ['-a', '-cp', list, String(pid)]);
    return true;
  } catch {
    return false;
  }
}
