/** One Nx task of a profiled run: which project and target, how long it took, and how it ended. */
export interface TaskTiming {
  readonly project: string;
  readonly target: string;
  /** When it started, in the trace's clock (milliseconds). */
  readonly startMs: number;
  readonly ms: number;
  readonly status: string;
}

interface TraceEvent {
  readonly ph?: unknown;
  readonly ts?: unknown;
  readonly dur?: unknown;
  readonly args?: {
    readonly target?: { readonly project?: unknown; readonly target?: unknown };
    readonly status?: unknown;
  };
}

/**
 * The tasks of an `NX_PROFILE` file: a Chrome trace whose complete events (`ph: "X"`) are tasks, their start and
 * duration in microseconds and their project and target in `args`. Other events (thread names) are skipped.
 */
export function taskTimingsOf(trace: unknown): TaskTiming[] {
  if (!Array.isArray(trace)) throw new Error('An Nx profile is a JSON array of trace events');
  const timings: TaskTiming[] = [];
  for (const event of trace as TraceEvent[]) {
    const target = event.args?.target;
    if (event.ph !== 'X' || typeof event.dur !== 'number') continue;
    if (typeof target?.project !== 'string' || typeof target.target !== 'string') continue;
    timings.push({
      project: target.project,
      target: target.target,
      startMs: typeof event.ts === 'number' ? event.ts / 1000 : 0,
      ms: event.dur / 1000,
      status: typeof event.args?.status === 'string' ? event.args.status : 'unknown',
    });
  }
  return timings;
}
