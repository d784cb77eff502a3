import { closeSync, fchmodSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Opens `<logDir>/<sessionId>.log` for appending (directory 0700, file 0600: a session's output may quote
 * anything it read) and marks where this run begins. Synchronous, so a start claims its session id before any
 * await. The caller hands the descriptor to the child and closes its own copy.
 */
export function openSessionLog(logDir: string, sessionId: string): { readonly fd: number; readonly path: string } {
  mkdirSync(logDir, { recursive: true, mode: 0o700 });
  const path = join(logDir, `${sessionId}.log`);
  const fd = openSync(path, 'a', 0o600);
  try {
    fchmodSync(fd, 0o600);
    writeSync(fd, `--- ${new Date().toISOString()} starting session ${sessionId}\n`);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return { fd, path };
}
