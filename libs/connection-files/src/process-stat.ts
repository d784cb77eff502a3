import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

// Without a schema or a package, like process-liveness.ts: pi-tui's entry reaches it before it loads zod.

/** What one /proc/<pid>/stat line says of a process (proc(5)); the times are in clock ticks. */
export interface ProcessStat {
  readonly pid: number;
  readonly name: string;
  /** R running, S sleeping, D waiting on disk, T stopped, Z ended but not reaped by its parent, X dead. */
  readonly state: string;
  readonly parentPid: number;
  readonly processGroup: number;
  /** User + system CPU time. */
  readonly cpuTicks: number;
  /** User + system CPU time of its children that ended and that it waited for (cutime + cstime). */
  readonly reapedCpuTicks: number;
  /** When it started, since boot: what tells it apart from a later process that reuses its pid. */
  readonly startTicks: number;
  /** Its resident set, in pages. */
  readonly residentPages: number;
}

/**
 * Parses /proc/<pid>/stat; undefined for anything else. The name is in parentheses and may itself hold spaces and
 * parentheses, so the fields are counted from the last `)`: state is field 3, ppid 4, pgrp 5, utime 14, stime 15,
 * cutime 16, cstime 17, starttime 22, rss 24.
 */
export function parseProcessStat(line: string): ProcessStat | undefined {
  const open = line.indexOf('(');
  const close = line.lastIndexOf(')');
  if (open < 0 || close < open) return undefined;
  const rest = line
    .slice(close + 2)
    .trim()
    .split(/\s+/);
  // rest[0] is field 3 (state), so field N is rest[N - 3].
  const field = (n: number) => Number(rest[n - 3]);
  const stat: ProcessStat = {
    pid: Number(line.slice(0, open)),
    name: line.slice(open + 1, close),
    state: rest[0] ?? '',
    parentPid: field(4),
    processGroup: field(5),
    cpuTicks: field(14) + field(15),
    reapedCpuTicks: field(16) + field(17),
    startTicks: field(22),
    residentPages: field(24),
  };
  const { name: _name, state: _state, ...numbers } = stat;
  return rest.length >= 22 && Object.values(numbers).every(Number.isFinite) ? stat : undefined;
}

/** The stat of `pid`; undefined when it is gone, not ours to read, or there is no /proc (not Linux). */
export function readProcessStatSync(pid: number | string): ProcessStat | undefined {
  try {
    return parseProcessStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** {@link readProcessStatSync} without blocking, for walking every process in /proc. */
export function readProcessStat(pid: number | string): Promise<ProcessStat | undefined> {
  return readFile(`/proc/${pid}/stat`, 'utf8').then(parseProcessStat, () => undefined);
}

/** Whether the process has ended: a zombie its parent has not reaped yet still has a stat, and still answers signal 0. */
export function hasEnded(stat: ProcessStat): boolean {
  return stat.state === 'Z' || stat.state === 'X';
}
