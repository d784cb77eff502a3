import type { TelemetryContext } from '@pi/context';
import type { Result } from 'neverthrow';
import type { ProcessError } from './process-errors';
import type { SessionStatus } from './session-status';
import type { StatusListener } from './status-listeners';
import type { SessionLaunch } from './tracked-process';

/**
 * The orchestrator adapter (docs/scaling.md): what runs a coordinator's session processes and is the one writer of
 * their status. `SessionProcesses` is the implementation for this machine (children of the coordinator); a pod per
 * session on Kubernetes, or a Nomad job, fills the same interface, with status from the orchestrator's watch API.
 */
export interface SessionOrchestrator {
  /** Runs the session and resolves once it is connected upstream (or why it could not). */
  start(launch: SessionLaunch, origin?: TelemetryContext): Promise<Result<void, ProcessError>>;
  /** Stops it gracefully, forcibly after a grace period; resolves once it is gone. */
  stop(sessionId: string): Promise<void>;
  status(sessionId: string): SessionStatus;
  /** Every status change, `starting → idle ⇄ active → closed`, once each. */
  onStatusChanged(listener: StatusListener): () => void;
  /**
   * What the session says of itself upstream: it is ready (`startup`: the context of that first report, in the
   * session's startup trace, for the spawn's link), how many presentations it has, its connection dropped.
   */
  connected(sessionId: string, startup?: TelemetryContext): void;
  presentations(sessionId: string, count: number): void;
  disconnected(sessionId: string): void;
}
