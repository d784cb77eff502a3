import type { TelemetryContext } from '@pi/context';
import { ok, type Result } from 'neverthrow';
import type { ProcessError } from './process-errors';
import type { SessionOrchestrator } from './session-orchestrator';
import { isLegalTransition, type SessionStatus } from './session-status';
import { StatusListeners, type StatusListener } from './status-listeners';
import type { SessionLaunch } from './tracked-process';

/**
 * An orchestrator that also follows the sessions it did not start: one running on another host, or one another
 * replica started, that connected upstream here. Such a session is `idle` or `active` while its connection to this
 * coordinator lasts and `closed` when it drops, so the replica a session is connected to is the one writer of its
 * status (a dead replica writes nothing; the replica it reconnects to takes over). Its process is not this
 * coordinator's to start or stop: it is stopped on its own host.
 */
export class SessionsElsewhere implements SessionOrchestrator {
  readonly #local: SessionOrchestrator;
  readonly #elsewhere = new Map<string, SessionStatus>();
  readonly #listeners = new StatusListeners();
  #leaving = false;

  constructor(local: SessionOrchestrator) {
    this.#local = local;
    local.onStatusChanged((change) => this.#listeners.emit(change));
  }

  /** A session connected from elsewhere is running already; anything else is the local orchestrator's to start. */
  start(launch: SessionLaunch, origin?: TelemetryContext): Promise<Result<void, ProcessError>> {
    if (this.#elsewhere.has(launch.sessionId)) return Promise.resolve(ok(undefined));
    return this.#local.start(launch, origin);
  }

  /** Stops a local process; a session running elsewhere is left running (it stops on its own host). */
  stop(sessionId: string): Promise<void> {
    return this.#elsewhere.has(sessionId) ? Promise.resolve() : this.#local.stop(sessionId);
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
