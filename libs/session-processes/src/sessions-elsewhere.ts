import type { TelemetryContext } from '@pi/context';
import { ok, type Result } from 'neverthrow';
import type { ProcessError } from './process-errors';
import type { SessionOrchestrator } from './session-orchestrator';
import { isLegalTransition, type SessionStatus } from './session-status';
import { StatusListeners, type StatusListener } from './status-listeners';
import type { SessionLaunch } from './tracked-process';

/** How `SessionsElsewhere` stops a session it did not start. */
export interface SessionsElsewhereOptions {
  /** Asks a session connected here to stop itself (the coordinator's `SessionControl`); without it, none is asked. */
  readonly askToStop?: (sessionId: string) => void;
  /** How long `stop` waits for an asked session's connection to drop (default 20 s, a local process's grace). */
  readonly stopWaitMs?: number;
}

const DEFAULT_STOP_WAIT_MS = 20_000;

/**
 * An orchestrator that also follows the sessions it did not start: one running on another host, or one another
 * replica started, that connected upstream here. Such a session is `idle` or `active` while its connection to this
 * coordinator lasts and `closed` when it drops, so the replica a session is connected to is the one writer of its
 * status (a dead replica writes nothing; the replica it reconnects to takes over). Its process is not this
 * coordinator's to start or signal: `stop` asks the session itself, over its connection (`askToStop`), and resolves
 * when that connection drops, or after `stopWaitMs` when the session does not go (one from before `SessionControl`).
 */
export class SessionsElsewhere implements SessionOrchestrator {
  readonly #local: SessionOrchestrator;
  readonly #elsewhere = new Map<string, SessionStatus>();
  readonly #listeners = new StatusListeners();
  readonly #options: SessionsElsewhereOptions;
  #leaving = false;

  constructor(local: SessionOrchestrator, options: SessionsElsewhereOptions = {}) {
    this.#local = local;
    this.#options = options;
    local.onStatusChanged((change) => this.#listeners.emit(change));
  }

  /** A session connected from elsewhere is running already; anything else is the local orchestrator's to start. */
  start(launch: SessionLaunch, origin?: TelemetryContext): Promise<Result<void, ProcessError>> {
    if (this.#elsewhere.has(launch.sessionId)) return Promise.resolve(ok(undefined));
    return this.#local.start(launch, origin);
  }

  /** Stops a local process; asks a session running elsewhere to stop, and waits for its connection to drop. */
  stop(sessionId: string): Promise<void> {
    if (!this.#elsewhere.has(sessionId)) return this.#local.stop(sessionId);
    const ask = this.#options.askToStop;
    if (ask === undefined) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.#options.stopWaitMs ?? DEFAULT_STOP_WAIT_MS);
      const stopListening = this.#listeners.add((change) => {
        if (change.sessionId === sessionId && change.status === 'closed') done();
      });
      function done(): void {
        clearTimeout(timer);
        stopListening();
        resolve();
      }
      ask(sessionId);
    });
  }

  status(sessionId: string): SessionStatus {
    return this.#elsewhere.get(sessionId) ?? this.#local.status(sessionId);
  }

  /** The ids of the sessions connected here that run elsewhere. */
  runningElsewhere(): readonly string[] {
    return [...this.#elsewhere.keys()];
  }

  onStatusChanged(listener: StatusListener): () => void {
    return this.#listeners.add(listener);
  }

  connected(sessionId: string, startup?: TelemetryContext): void {
    if (!this.#elsewhere.has(sessionId) && this.#local.status(sessionId) !== 'closed')
      return this.#local.connected(sessionId, startup);
    this.#move(sessionId, this.#elsewhere.get(sessionId) ?? 'idle');
  }

  presentations(sessionId: string, count: number): void {
    if (!this.#elsewhere.has(sessionId)) return this.#local.presentations(sessionId, count);
    if (!Number.isInteger(count) || count < 0) throw new RangeError(`A presentation count is a whole number: ${count}`);
    this.#move(sessionId, count > 0 ? 'active' : 'idle');
  }

  /** A local process reconnects by itself and keeps its status; a session elsewhere is no longer seen from here. */
  disconnected(sessionId: string): void {
    if (!this.#elsewhere.has(sessionId)) return this.#local.disconnected(sessionId);
    if (this.#leaving) this.#elsewhere.delete(sessionId);
    else this.#move(sessionId, 'closed');
  }

  /**
   * This coordinator is stopping: the sessions elsewhere that drop now are not closed, they reconnect to another
   * replica, whose `idle` this one's late `closed` must not overwrite. (A coordinator alone finds them closed at its
   * next start, when their records name no process it can see.)
   */
  leave(): void {
    this.#leaving = true;
  }

  #move(sessionId: string, next: SessionStatus): void {
    const previous = this.#elsewhere.get(sessionId) ?? 'closed';
    if (next === 'closed') this.#elsewhere.delete(sessionId);
    else this.#elsewhere.set(sessionId, next);
    if (previous === next || !isLegalTransition(previous, next)) return;
    this.#listeners.emit({ sessionId, status: next, previous });
  }
}
