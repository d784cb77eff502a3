import { ok, type Result } from 'neverthrow';
import type { TelemetrySpan } from '@pi/context';
import type { ProcessError } from './process-errors';
import type { SessionStatus } from './session-status';

export interface SessionLaunch {
  readonly sessionId: string;
  readonly workspaceId: string;
  /** The project directory the session works in (and runs in). */
  readonly cwd: string;
}

/** One session process the manager tracks, from its start (or adoption) until it is closed. */
export interface TrackedProcess {
  readonly launch: SessionLaunch;
  /** Not our child: found running after a coordinator restart, watched by polling. */
  readonly adopted: boolean;
  status: SessionStatus;
  pid: number | undefined;
  /** Tells an adopted process apart from a later one reusing its pid (Linux). */
  startTime: string | undefined;
  logPath: string | undefined;
  /** stop() was called (or the start timed out): its exit is not a crash. */
  stopping: boolean;
  /** Why the start fails once it exits, when that is not simply "it exited". */
  failure: ProcessError | undefined;
  /** The `session.spawn` span while the session is starting: it links to the session's startup once that reports. */
  spawnSpan?: TelemetrySpan | undefined;
  readonly started: Promise<Result<void, ProcessError>>;
  /** Settles `started`; only the first call counts. */
  readonly settleStart: (result: Result<void, ProcessError>) => void;
  readonly closed: Promise<void>;
  readonly settleClosed: () => void;
  readonly timers: {
    start?: NodeJS.Timeout;
    kill?: NodeJS.Timeout;
    poll?: NodeJS.Timeout;
  };
}

export function trackedProcess(launch: SessionLaunch, adopted: boolean): TrackedProcess {
  let resolveStarted: (result: Result<void, ProcessError>) => void = () => undefined;
  let resolveClosed: () => void = () => undefined;
  const started = new Promise<Result<void, ProcessError>>((resolve) => (resolveStarted = resolve));
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  return {
    launch,
    adopted,
    status: 'closed',
    pid: undefined,
    startTime: undefined,
    logPath: undefined,
    stopping: false,
    failure: undefined,
    started,
    settleStart: (result) => resolveStarted(result),
    closed,
    settleClosed: () => resolveClosed(),
    timers: {},
  };
}

export function clearTimers(tracked: TrackedProcess): void {
  clearTimeout(tracked.timers.start);
  clearTimeout(tracked.timers.kill);
  clearTimeout(tracked.timers.poll);
}

/** An adopted process is already running: starting it again has nothing to wait for. */
export function adoptedProcess(launch: SessionLaunch, pid: number, startTime: string | undefined): TrackedProcess {
  const tracked = trackedProcess(launch, true);
  tracked.pid = pid;
  tracked.startTime = startTime;
  tracked.settleStart(ok(undefined));
  return tracked;
}
