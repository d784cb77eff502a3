import { readdir, readFile } from 'node:fs/promises';
import { readProcessStat } from '@pi/connection-files';

/** Linux's clock ticks per second (`getconf CLK_TCK`) and page size: the units of /proc/<pid>/stat. */
export const CLOCK_TICKS_PER_SECOND = 100;
export const PAGE_BYTES = 4096;

/** What the bench reads of a process from /proc/<pid>/stat: its CPU time and memory. */
export interface ProcessStat {
  readonly pid: number;
  readonly name: string;
  readonly parentPid: number;
  /** User + system CPU time, in clock ticks. */
  readonly cpuTicks: number;
  /** User + system CPU time of its children that ended and that it waited for (cutime + cstime), in clock ticks. */
  readonly reapedCpuTicks: number;
  readonly rssBytes: number;
}

/** The processes whose environment holds `marker` (`NAME=value`): everything an agent started, however detached. */
export function processesMarked(marker: string): Promise<number[]> {
  return processesWhere((environment) => environment.includes(marker));
}

/** The processes (of this user: others' cannot be read) whose environment, as `NAME=value` entries, passes `test`. */
export async function processesWhere(test: (environment: readonly string[]) => boolean): Promise<number[]> {
  const entries = await readdir('/proc');
  const found: number[] = [];
  await Promise.all(
    entries
      .filter((entry) => /^\d+$/.test(entry))
      .map(async (entry) => {
        // Gone already, or not ours to read: not one of the agent's processes.
        const environ = await readFile(`/proc/${entry}/environ`, 'latin1').catch(() => '');
        if (environ !== '' && test(environ.split('\0'))) found.push(Number(entry));
      }),
  );
  return found.sort((a, b) => a - b);
}

/** The stat of each of these processes still running, named after the script node runs (`pi-session.mjs`). */
export async function readStats(pids: readonly number[]): Promise<ProcessStat[]> {
  const stats = await Promise.all(
    pids.map(async (pid) => {
      const stat = await readProcessStat(pid);
      const command = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
      if (stat === undefined) return undefined;
      const { parentPid, cpuTicks, reapedCpuTicks, residentPages } = stat;
      const name = commandName(command, stat.name);
      return { pid, name, parentPid, cpuTicks, reapedCpuTicks, rssBytes: residentPages * PAGE_BYTES };
    }),
  );
  return stats.filter((stat): stat is ProcessStat => stat !== undefined);
}

/** The first argument that names a script (`/…/pi-tui.mjs --start` → `pi-tui.mjs`), else the executable's name. */
export function commandName(cmdline: string, fallback: string): string {
  const script = cmdline
    .split('\0')
    .slice(1)
    .find((arg) => /\.(m?js|ts)$/.test(arg));
  return script === undefined ? fallback : (script.split('/').at(-1) ?? fallback);
}

/** A process's memory from /proc/<pid>/smaps_rollup: all of it resident (RSS), and what no other process maps. */
export interface ProcessMemory {
  readonly rssBytes: number;
  /** Private_Clean + Private_Dirty (USS): the rest is shared, e.g. the node binary's pages with every other node. */
  readonly privateBytes: number;
}

export function parseSmapsRollup(rollup: string): ProcessMemory | undefined {
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(rollup)?.[1] ?? Number.NaN);
  const [rss, clean, dirty] = [kib('Rss'), kib('Private_Clean'), kib('Private_Dirty')];
  if (![rss, clean, dirty].every(Number.isFinite)) return undefined;
  return { rssBytes: rss * 1024, privateBytes: (clean + dirty) * 1024 };
}

/**
 * The memory a group of processes holds with the pages they share counted once, not once per process as summed
 * RSS does: their private memory plus the largest shared part of any one of them (a lower bound of the union, which
 * is close when the shared pages are the same node binary and libraries in each). Unreadable processes count nothing.
 */
export function sharedOnceBytes(memories: readonly (ProcessMemory | undefined)[]): number {
  const known = memories.filter((memory): memory is ProcessMemory => memory !== undefined);
  const shared = Math.max(0, ...known.map((memory) => memory.rssBytes - memory.privateBytes));
  return known.reduce((sum, memory) => sum + memory.privateBytes, 0) + shared;
}

export async function readSharedOnceBytes(pids: readonly number[]): Promise<number> {
  const rollups = pids.map((pid) =>
    readFile(`/proc/${pid}/smaps_rollup`, 'utf8').then(parseSmapsRollup, () => undefined),
  );
  return sharedOnceBytes(await Promise.all(rollups));
}

/** The summed RSS and CPU ticks of a group of processes, and each one's own. */
export interface GroupSample {
  readonly rssBytes: number;
  readonly cpuTicks: number;
  readonly processes: readonly ProcessStat[];
}

export function sumStats(stats: readonly ProcessStat[]): GroupSample {
  return {
    rssBytes: stats.reduce((sum, stat) => sum + stat.rssBytes, 0),
    cpuTicks: stats.reduce((sum, stat) => sum + stat.cpuTicks, 0),
    processes: stats,
  };
}

export async function sampleMarked(marker: string): Promise<GroupSample> {
  return sumStats(await readStats(await processesMarked(marker)));
}

/**
 * CPU time used between two samples, in ms: each process's own and that of the children it reaped meanwhile (a
 * short-lived helper such as `pi-coordinator start` is counted in its parent), its difference for a process seen in
 * both, all of it for one started in between. One that ended in between is counted only through a parent sampled.
 */
export function cpuUsedMs(before: GroupSample, after: GroupSample): number {
  const total = (stat: ProcessStat) => stat.cpuTicks + stat.reapedCpuTicks;
  const earlier = new Map(before.processes.map((stat) => [stat.pid, total(stat)]));
  const ticks = after.processes.reduce((sum, stat) => sum + total(stat) - (earlier.get(stat.pid) ?? 0), 0);
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** The process `pid` and every live descendant of it, found through /proc/<pid>/task/<tid>/children. */
export async function processTree(pid: number): Promise<number[]> {
  const tasks = await readdir(`/proc/${pid}/task`).catch(() => []);
  const children = await Promise.all(
    tasks.map((task) => readFile(`/proc/${pid}/task/${task}/children`, 'utf8').catch(() => '')),
  );
  const direct = children.join(' ').split(/\s+/).filter(Boolean).map(Number);
  const below = await Promise.all(direct.map((child) => processTree(child)));
  return [pid, ...below.flat()];
}

/**
 * CPU used between two samples, as a percentage of one core. Ticks are cumulative per process: a process seen in
 * both counts its difference, one started in between all it used; one that ended in between is not counted.
 */
export function cpuPercent(before: GroupSample, after: GroupSample, elapsedMs: number): number {
  return cpuPercentByProcess(before, after, elapsedMs).reduce((sum, process) => sum + process.percent, 0);
}

/** The same, for each process of the later sample by name (`pi-session.mjs`), in its order. */
export function cpuPercentByProcess(
  before: GroupSample,
  after: GroupSample,
  elapsedMs: number,
): Array<{ readonly name: string; readonly percent: number }> {
  const earlier = new Map(before.processes.map((stat) => [stat.pid, stat.cpuTicks]));
  return after.processes.map((stat) => {
    const ticks = stat.cpuTicks - (earlier.get(stat.pid) ?? 0);
    const percent = elapsedMs <= 0 ? 0 : (ticks / CLOCK_TICKS_PER_SECOND / (elapsedMs / 1000)) * 100;
    return { name: stat.name, percent };
  });
}
