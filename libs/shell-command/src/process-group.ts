import { readdir } from 'node:fs/promises';
import { hasEnded, readProcessStat } from '@pi/connection-files/process-stat';

const POLL_MS = 25;
/** After SIGKILL, how long to wait for the kernel to take the processes down before giving up. */
const AFTER_KILL_MS = 2000;

/**
 * Ends every process of a process group: SIGTERM, then SIGKILL to whatever is still alive after `graceMs`.
 * Resolves once no process of the group is alive (zombies waiting for init to reap them are dead), or when even
 * SIGKILL did not take effect in time. Returns false when the group was already gone.
 */
export async function endProcessGroup(pgid: number, graceMs: number): Promise<boolean> {
  if (!signalGroup(pgid, 'SIGTERM')) return false;
  if (await waitUntilGone(pgid, graceMs)) return true;
  signalGroup(pgid, 'SIGKILL');
  await waitUntilGone(pgid, AFTER_KILL_MS);
  return true;
}

/** Sends a signal to every process of the group; false when the group has no process left (ESRCH). */
function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

async function waitUntilGone(pgid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!(await groupAlive(pgid))) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * Whether a process of the group still runs. `kill(-pgid, 0)` also succeeds while only zombies are left (orphans
 * wait for init, which may reap them seconds later), so on Linux /proc tells the living apart.
 */
export async function groupAlive(pgid: number): Promise<boolean> {
  try {
    process.kill(-pgid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
  return (await livingMembers(pgid)) ?? true;
}

/** Whether /proc lists a process of the group that is not a zombie; undefined without /proc. */
async function livingMembers(pgid: number): Promise<boolean | undefined> {
  let pids: string[];
  try {
    pids = await readdir('/proc');
  } catch {
    return undefined;
  }
  for (const pid of pids) {
    if (!/^\d+$/.test(pid)) continue;
    const stat = await readProcessStat(pid);
    if (stat !== undefined && stat.processGroup === pgid && !hasEnded(stat)) return true;
  }
  return false;
}
