import type { SessionStatus } from './session-status';

/** How the process ended, on a change to `closed` of a process that ran. */
export interface ProcessExit {
  /** Null when it died of a signal, or when it was adopted (no exit status reaches a non-parent). */
  readonly code: number | null;
  readonly signal: string | null;
  /** It ended without being asked to (see docs/decisions.md, "Session processes"). */
  readonly crashed: boolean;
}

export interface StatusChange {
  readonly sessionId: string;
  readonly status: SessionStatus;
  readonly previous: SessionStatus;
  readonly exit?: ProcessExit;
}

export type StatusListener = (change: StatusChange) => void;

/** Listeners of status changes; one that throws is reported as a warning and never stops the others. */
export class StatusListeners {
  // Wrapped, so that one function added twice is two registrations, each removed by its own disposer.
  private readonly entries = new Set<{ readonly listener: StatusListener }>();

  add(listener: StatusListener): () => void {
    const entry = { listener };
    this.entries.add(entry);
    return () => {
      this.entries.delete(entry);
    };
  }

  emit(change: StatusChange): void {
    for (const { listener } of [...this.entries]) {
      try {
        listener(change);
      } catch (error) {
        const detail = error instanceof Error ? error.message : String(error);
        process.emitWarning(`A session status listener threw on ${change.sessionId} → ${change.status}: ${detail}`, {
          code: 'PI_STATUS_LISTENER',
        });
      }
    }
  }
}
