import { err, ok, type Result } from 'neverthrow';
import type { SessionProcessControl } from '@pi/host-coordinator';
import type { ProcessError, SessionLaunch, SessionStatus, StatusChange, StatusListener } from '@pi/session-processes';

/** What the coordinator asked of the process manager, in order. */
export type ProcessCall =
  | { readonly op: 'start'; readonly sessionId: string }
  | { readonly op: 'stop'; readonly sessionId: string; readonly whileStarting: boolean }
  | { readonly op: 'connected' | 'disconnected'; readonly sessionId: string }
  | { readonly op: 'presentations'; readonly sessionId: string; readonly count: number };

/**
 * `instant`: a start announces starting → idle and resolves at once. `hold`: it announces starting and waits
 * until the test releases it — or until it is stopped, which is what the coordinator does when the call that
 * started it is cancelled.
 */
export type StartMode = 'instant' | 'hold';

export interface StandInProcesses extends SessionProcessControl {
  readonly calls: readonly ProcessCall[];
  /** Sessions whose start is being held (`hold` mode). */
  readonly held: readonly string[];
  /** Lets a held start connect (starting → idle) and resolve. */
  release(sessionId: string): void;
  /** Ends every held start as exited, so nothing is left pending after a test. */
  releaseAll(): void;
}

/** A process manager in memory: statuses along the legal transitions, announced to its listeners in order. */
export function standInProcesses(mode: StartMode, running: readonly string[]): StandInProcesses {
  const statuses = new Map<string, SessionStatus>(running.map((sessionId) => [sessionId, 'idle']));
  const listeners = new Set<{ readonly listener: StatusListener }>();
  const holds = new Map<string, (result: Result<void, ProcessError>) => void>();
  const calls: ProcessCall[] = [];

  const status = (sessionId: string): SessionStatus => statuses.get(sessionId) ?? 'closed';
  const move = (sessionId: string, next: SessionStatus) => {
    const previous = status(sessionId);
    if (previous === next) return;
    statuses.set(sessionId, next);
    const change: StatusChange = { sessionId, status: next, previous };
    for (const { listener } of [...listeners]) listener(change);
  };
  const settle = (sessionId: string, result: Result<void, ProcessError>) => {
    const resolve = holds.get(sessionId);
    holds.delete(sessionId);
    resolve?.(result);
  };

  return {
    calls,
    get held() {
      return [...holds.keys()];
    },
    start(launch: SessionLaunch) {
      calls.push({ op: 'start', sessionId: launch.sessionId });
      if (status(launch.sessionId) !== 'closed') return Promise.resolve(ok(undefined));
      move(launch.sessionId, 'starting');
      if (mode === 'instant') {
        move(launch.sessionId, 'idle');
        return Promise.resolve(ok(undefined));
      }
      return new Promise((resolve) => holds.set(launch.sessionId, resolve));
    },
    async stop(sessionId) {
      calls.push({ op: 'stop', sessionId, whileStarting: holds.has(sessionId) });
      settle(sessionId, err({ code: 'exited', message: `Session ${sessionId} was stopped before it connected` }));
      move(sessionId, 'closed');
    },
    status,
    onStatusChanged(listener) {
      const entry = { listener };
      listeners.add(entry);
      return () => void listeners.delete(entry);
    },
    connected(sessionId) {
      calls.push({ op: 'connected', sessionId });
    },
    disconnected(sessionId) {
      calls.push({ op: 'disconnected', sessionId });
    },
    presentations(sessionId, count) {
      calls.push({ op: 'presentations', sessionId, count });
      if (status(sessionId) === 'idle' || status(sessionId) === 'active') {
        move(sessionId, count > 0 ? 'active' : 'idle');
      }
    },
    release(sessionId) {
      if (!holds.has(sessionId)) return;
      move(sessionId, 'idle');
      settle(sessionId, ok(undefined));
    },
    releaseAll() {
      for (const sessionId of [...holds.keys()]) {
        settle(sessionId, err({ code: 'exited', message: 'The test ended' }));
        move(sessionId, 'closed');
      }
    },
  };
}
