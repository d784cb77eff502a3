import { readFileSync } from 'node:fs';

/**
 * What the kernel's scheduler did with one thread so far (Linux: `/proc/<pid>/task/<tid>/schedstat` and `status`).
 * A sequential call is work on two threads, each process's main thread, and waiting between them; these split the
 * two: time on a CPU, time runnable but waiting for one, and how often the thread was put on a CPU.
 */
export interface ThreadSchedule {
  /** Time on a CPU, ns. */
  readonly runNs: number;
  /** Time runnable and waiting for a CPU (the run queue), ns. */
  readonly waitNs: number;
  /** Times the thread was put on a CPU: every wake-up after a sleep, and every return after a preemption. */
  readonly slices: number;
  /** Times it gave the CPU up while it could have run on (another thread's turn came). */
  readonly involuntarySwitches: number;
}

/** Per call between two readings: µs on a CPU and waiting for one, slices and involuntary switches. */
export interface SchedulePerCall {
  readonly runUs: number;
  readonly waitUs: number;
  readonly slices: number;
  readonly involuntarySwitches: number;
}

/** The `schedstat` line: run ns, wait ns, slices; undefined when it is not three numbers. */
export function parseSchedstat(text: string): Pick<ThreadSchedule, 'runNs' | 'waitNs' | 'slices'> | undefined {
  const fields = text.trim().split(/\s+/);
  if (fields.length !== 3 || !fields.every((field) => /^\d+$/.test(field))) return undefined;
  const [runNs, waitNs, slices] = fields.map(Number) as [number, number, number];
  return { runNs, waitNs, slices };
}

/** `nonvoluntary_ctxt_switches` of a `status` file, undefined when absent. */
export function parseInvoluntarySwitches(status: string): number | undefined {
  const match = /^nonvoluntary_ctxt_switches:\s+(\d+)$/m.exec(status);
  return match === null ? undefined : Number(match[1]);
}

/** The main thread of process `pid` (its thread id is the pid); undefined where /proc does not tell (not Linux). */
export function readThreadSchedule(pid: number): ThreadSchedule | undefined {
  try {
    const task = `/proc/${pid}/task/${pid}`;
    const stat = parseSchedstat(readFileSync(`${task}/schedstat`, 'utf8'));
    const involuntarySwitches = parseInvoluntarySwitches(readFileSync(`${task}/status`, 'utf8'));
    return stat === undefined || involuntarySwitches === undefined ? undefined : { ...stat, involuntarySwitches };
  } catch {
    return undefined;
  }
}

export function schedulePerCall(
  before: ThreadSchedule | undefined,
  after: ThreadSchedule | undefined,
  calls: number,
): SchedulePerCall | undefined {
  if (before === undefined || after === undefined || calls <= 0) return undefined;
  return {
    runUs: (after.runNs - before.runNs) / 1000 / calls,
    waitUs: (after.waitNs - before.waitNs) / 1000 / calls,
    slices: (after.slices - before.slices) / calls,
    involuntarySwitches: (after.involuntarySwitches - before.involuntarySwitches) / calls,
  };
}
