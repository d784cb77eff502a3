import type { RemoteError } from '@pi/remote';
import { exitCodeOf } from './exit-codes';

/** Where a command writes: results on `out`, diagnostics and errors on `err`; one line per call. */
export interface Output {
  out(line: string): void;
  err(line: string): void;
}

/**
 * Reports an error with its stable code (`pi: <code>: <message>`, or with --json one `{ "error": ... }` line) on
 * the error stream, and returns the exit code for it.
 */
export function reportError(io: Output, error: RemoteError, json: boolean): number {
  io.err(json ? JSON.stringify({ error: error.toEnvelope() }) : `pi: ${error.code}: ${error.message}`);
  return exitCodeOf(error.code);
}
