/** Why a session process did not start. */
export const PROCESS_ERROR_CODES = {
  /** It exited (or was stopped) before it connected upstream. */
  exited: 'exited',
  /** It did not connect upstream in time, and was stopped. */
  start_timeout: 'start_timeout',
  /** It could not be spawned at all (no such program or directory, no log file, an invalid handoff). */
  spawn_failed: 'spawn_failed',
} as const;

export type ProcessErrorCode = keyof typeof PROCESS_ERROR_CODES;

export interface ProcessError {
  readonly code: ProcessErrorCode;
  readonly message: string;
}

/** A spawn failure from whatever was thrown or emitted. */
export function spawnFailed(what: string, error: unknown): ProcessError {
  const detail = error instanceof Error ? error.message : String(error);
  return { code: 'spawn_failed', message: `Cannot start ${what}: ${detail}` };
}
