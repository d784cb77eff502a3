import type { UpstreamHandoff } from '@pi/connection-files';
import { ROOT_TELEMETRY, withEnvironmentCarrier, type TelemetryContext } from '@pi/context';
import { err, ok, type Result } from 'neverthrow';
import { spawnFailed, type ProcessError } from './process-errors';
import { isProcessAlive, killProcessGroup, processStartTime, sendSignal } from './process-signals';
import type { SessionOrchestrator } from './session-orchestrator';
import { isLegalTransition, type SessionStatus } from './session-status';
import { checkedHandoff, dropHandoffPipe, sendHandoff, spawnSession, type SessionCommand } from './spawn-session';
import { StatusListeners, type ProcessExit, type StatusListener } from './status-listeners';
import {
  adoptedProcess,
  clearTimers,
  trackedProcess,
  type SessionLaunch,
  type TrackedProcess,
} from './tracked-process';

export interface SessionProcessesOptions {
  /** How to run one session process, e.g. `{ file: process.execPath, args: [piSession, '--upstream-fd', '3', …] }`. */
  readonly command: (launch: SessionLaunch) => SessionCommand;
  /** What goes down fd 3 (the credential included): written once, then the pipe is closed. */
  readonly handoff: (launch: SessionLaunch) => UpstreamHandoff;
  /** The children's environment (default: this process's). */
  readonly env?: NodeJS.ProcessEnv;
  /** Each child's stdout and stderr are appended to `<logDir>/<sessionId>.log`. */
  readonly logDir: string;
  /** Not connected upstream by then: the process is stopped and the start fails `start_timeout`. Default 15 s. */
  readonly startTimeoutMs?: number;
  /** SIGTERM first, SIGKILL to the process group this much later. Default 5 s. */
  readonly stopTimeoutMs?: number;
  /** How often an adopted process (no exit event reaches a non-parent) is checked. Default 1 s. */
  readonly adoptedPollMs?: number;
}

/** While an adopted process is being stopped, its exit is looked for this often. */
const STOPPING_POLL_MS = 25;

/**
 * Starts, tracks and stops the session processes of one coordinator, as its children (the local-process
 * orchestrator). Every process it spawns is tracked until it exits; every status change follows a legal transition
 * and is told to the listeners once.
 */
export class SessionProcesses implements SessionOrchestrator {
  private readonly tracked = new Map<string, TrackedProcess>();
  private readonly listeners = new StatusListeners();
  private readonly env: NodeJS.ProcessEnv;
  private readonly startTimeoutMs: number;
  private readonly stopTimeoutMs: number;
  private readonly adoptedPollMs: number;

  constructor(private readonly options: SessionProcessesOptions) {
    this.env = options.env ?? process.env;
    this.startTimeoutMs = options.startTimeoutMs ?? 15_000;
    this.stopTimeoutMs = options.stopTimeoutMs ?? 5_000;
    this.adoptedPollMs = options.adoptedPollMs ?? 1_000;
  }

  /**
   * Spawns the session and resolves once it is connected upstream; a session already tracked is waited for. The
   * spawn is a `session.spawn` span under `origin` (the call that asked for it), lasting until the session connects,
   * and the child's `session.start` span links to it (TRACEPARENT in its environment).
   */
  start(launch: SessionLaunch, origin: TelemetryContext = ROOT_TELEMETRY): Promise<Result<void, ProcessError>> {
    const current = this.tracked.get(launch.sessionId);
    if (current === undefined) return this.spawnTraced(launch, origin);
    if (current.stopping) return current.closed.then(() => this.start(launch, origin));
    // Killed a moment ago, its exit not noticed yet: answering with it would start nothing (a soak's finding).
    if (current.pid !== undefined && !isProcessAlive(current.pid, current.startTime)) {
      if (current.adopted) this.exited(current, null, null);
      return current.closed.then(() => this.start(launch, origin));
    }
    return current.started;
  }

  /**
   * It reported (its upstream connection authenticated): a starting session is now idle. `startup` is the context
   * of that first report, in the session's startup trace: the spawn span links to it.
   */
  connected(sessionId: string, startup?: TelemetryContext): void {
    const entry = this.tracked.get(sessionId);
    if (entry === undefined || entry.stopping || entry.status !== 'starting') return;
    if (startup !== undefined) entry.spawnSpan?.addLink(startup);
    clearTimeout(entry.timers.start);
    this.move(entry, 'idle');
    entry.settleStart(ok(undefined));
  }

  /** How many presentations it serves: active with any, idle with none. */
  presentations(sessionId: string, count: number): void {
    if (!Number.isInteger(count) || count < 0) throw new RangeError(`A presentation count is a whole number: ${count}`);
    const entry = this.tracked.get(sessionId);
    // Before it connected, presentations cannot reach it through us; while it stops, it is on its way to closed.
    if (entry === undefined || entry.stopping || entry.status === 'starting') return;
    this.move(entry, count > 0 ? 'active' : 'idle');
  }

  /**
   * Its upstream connection closed. The process still runs and reconnects by itself, and its presentations may
   * still be attached to its own socket, so the status stays as it was; only an exit closes it.
   */
  disconnected(_sessionId: string): void {
    // Deliberately nothing: see docs/decisions.md, "Session processes".
  }

  /** Tracks a session process that outlived a coordinator restart (its pid from its connection file); idle. */
  adopt(launch: SessionLaunch, pid: number): void {
    if (!Number.isInteger(pid) || pid <= 0) throw new RangeError(`Not a process id: ${pid}`);
    if (this.tracked.has(launch.sessionId)) return;
    const startTime = processStartTime(pid);
    if (!isProcessAlive(pid, startTime)) return;
    const entry = adoptedProcess(launch, pid, startTime);
    this.tracked.set(launch.sessionId, entry);
    this.move(entry, 'idle');
    this.watchAdopted(entry);
  }

  /** SIGTERM, then SIGKILL to its process group after the stop timeout; resolves once it exited. */
  stop(sessionId: string): Promise<void> {
    const entry = this.tracked.get(sessionId);
    if (entry === undefined) return Promise.resolve();
    if (!entry.stopping) this.beginStop(entry);
    return entry.closed;
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.tracked.keys()].map((sessionId) => this.stop(sessionId)));
  }

  status(sessionId: string): SessionStatus {
    return this.tracked.get(sessionId)?.status ?? 'closed';
  }

  pid(sessionId: string): number | undefined {
    return this.tracked.get(sessionId)?.pid;
  }

  /** The ids of every session with a process: starting, idle, active or being stopped. */
  running(): readonly string[] {
    return [...this.tracked.keys()];
  }

  /** Every status change from now on; the disposer removes exactly this registration. */
  onStatusChanged(listener: StatusListener): () => void {
    return this.listeners.add(listener);
  }

  private spawnTraced(launch: SessionLaunch, origin: TelemetryContext): Promise<Result<void, ProcessError>> {
    const span = { name: 'session.spawn', kind: 'client' as const, attributes: { 'pi.session_id': launch.sessionId } };
    return origin.startSpan(span, async (spawning) => {
      const starting = this.spawn(launch, withEnvironmentCarrier(this.env, spawning.inject()));
      const entry = this.tracked.get(launch.sessionId);
      if (entry !== undefined) entry.spawnSpan = spawning;
      const started = await starting;
      if (entry !== undefined) entry.spawnSpan = undefined;
      spawning.setAttribute('pi.outcome', started.isOk() ? 'connected' : started.error.code);
      return started;
    });
  }

  private spawn(launch: SessionLaunch, env: NodeJS.ProcessEnv): Promise<Result<void, ProcessError>> {
    const what = `session ${launch.sessionId}`;
    let handoff: UpstreamHandoff;
    let command: SessionCommand;
    try {
      handoff = checkedHandoff(launch, this.options.handoff(launch));
      command = this.options.command(launch);
    } catch (error) {
      return Promise.resolve(err(spawnFailed(what, error)));
    }
    const entry = trackedProcess(launch, false);
    this.tracked.set(launch.sessionId, entry);
    this.move(entry, 'starting');
    let spawned: ReturnType<typeof spawnSession>;
    try {
      spawned = spawnSession(launch, command, env, this.options.logDir);
    } catch (error) {
      entry.failure = spawnFailed(what, error);
      this.close(entry, undefined);
      return entry.started;
    }
    const { child, logPath } = spawned;
    entry.logPath = logPath;
    child.on('error', (error) => {
      if (child.pid !== undefined) return; // a running child's only errors would come from child.kill, unused
      dropHandoffPipe(child);
      entry.failure = spawnFailed(`${what} (${command.file} in ${launch.cwd})`, error);
      this.close(entry, undefined);
    });
    child.once('exit', (code, signal) => this.exited(entry, code, signal));
    if (child.pid !== undefined) {
      entry.pid = child.pid;
      sendHandoff(child, handoff);
      entry.timers.start = setTimeout(() => this.startTimedOut(entry), this.startTimeoutMs);
    }
    return entry.started;
  }

  private startTimedOut(entry: TrackedProcess): void {
    if (entry.status !== 'starting' || entry.stopping) return;
    entry.failure = {
      code: 'start_timeout',
      message: `Session ${entry.launch.sessionId} did not connect within ${this.startTimeoutMs} ms and was stopped (log: ${entry.logPath})`,
    };
    this.beginStop(entry);
  }

  private beginStop(entry: TrackedProcess): void {
    entry.stopping = true;
    clearTimeout(entry.timers.start);
    if (entry.status === 'starting') {
      entry.failure ??= {
        code: 'exited',
        message: `Session ${entry.launch.sessionId} was stopped before it connected`,
      };
    }
    if (entry.pid === undefined) return; // the spawn is failing: its 'error' event closes it
    this.signal(entry, 'SIGTERM');
    entry.timers.kill = setTimeout(() => this.signal(entry, 'SIGKILL'), this.stopTimeoutMs);
    if (entry.adopted) this.watchAdopted(entry);
  }

  /** SIGTERM to the session alone (it stops its tools itself); SIGKILL to its whole process group. */
  private signal(entry: TrackedProcess, signal: 'SIGTERM' | 'SIGKILL'): void {
    const pid = entry.pid;
    if (pid === undefined || entry.status === 'closed') return;
    // An adopted process may be gone since the last poll, and its pid taken by another process.
    if (entry.adopted && !isProcessAlive(pid, entry.startTime)) return;
    if (signal === 'SIGKILL') killProcessGroup(pid);
    else sendSignal(pid, signal);
  }

  /** Polls an adopted process: briefly while it is being stopped, else every `adoptedPollMs` (not holding the loop). */
  private watchAdopted(entry: TrackedProcess): void {
    clearTimeout(entry.timers.poll);
    const pid = entry.pid;
    if (pid === undefined) return;
    const timer = setTimeout(
      () => {
        if (entry.status === 'closed') return;
        if (isProcessAlive(pid, entry.startTime)) this.watchAdopted(entry);
        else this.exited(entry, null, null);
      },
      entry.stopping ? STOPPING_POLL_MS : this.adoptedPollMs,
    );
    if (!entry.stopping) timer.unref();
    entry.timers.poll = timer;
  }

  private exited(entry: TrackedProcess, code: number | null, signal: NodeJS.Signals | null): void {
    // Whatever its own children left behind goes too. Our child's pid is reaped just now, so the group (if any
    // member remains) is still its; an adopted pid may be reused by now, so its group is left alone.
    if (!entry.adopted && entry.pid !== undefined) sendSignal(-entry.pid, 'SIGKILL');
    this.close(entry, { code, signal, crashed: !entry.stopping && code !== 0 });
  }

  private close(entry: TrackedProcess, exit: ProcessExit | undefined): void {
    if (entry.status === 'closed') return;
    clearTimers(entry);
    if (this.tracked.get(entry.launch.sessionId) === entry) this.tracked.delete(entry.launch.sessionId);
    this.move(entry, 'closed', exit);
    entry.settleStart(err(entry.failure ?? exitedEarly(entry, exit)));
    entry.settleClosed();
  }

  /** Moves along a legal transition and tells the listeners; the same status, or an illegal move, changes nothing. */
  private move(entry: TrackedProcess, next: SessionStatus, exit?: ProcessExit): void {
    const previous = entry.status;
    if (previous === next || !isLegalTransition(previous, next)) return;
    entry.status = next;
    const sessionId = entry.launch.sessionId;
    this.listeners.emit(
      exit === undefined ? { sessionId, status: next, previous } : { sessionId, status: next, previous, exit },
    );
  }
}

function exitedEarly(entry: TrackedProcess, exit: ProcessExit | undefined): ProcessError {
  const how = exit?.signal != null ? `signal ${exit.signal}` : `exit code ${exit?.code ?? 'unknown'}`;
  return {
    code: 'exited',
    message: `Session ${entry.launch.sessionId} exited before it connected (${how}; log: ${entry.logPath})`,
  };
}
