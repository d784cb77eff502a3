import type { SessionFileFault } from '@pi/agent-contract';
import { errorCode, errorMessage } from './error-text';

/** Words for the system errors a write of the session file meets in practice; others keep Node's own message. */
const CAUSES: Readonly<Record<string, string>> = {
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EIO: 'input/output error',
  EROFS: 'read-only file system',
  EFBIG: 'file too large',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EBADF: 'the file is no longer open',
};

/** A failed write, read, sync or truncation of the session file as the fault every client is shown. */
export function sessionFileFault(file: string, error: unknown): SessionFileFault {
  const code = errorCode(error);
  const words = code === undefined ? undefined : CAUSES[code];
  const cause = words === undefined ? errorMessage(error) : `${words} (${code})`;
  return {
    code: 'session_file_unwritable',
    message: `Cannot write the session file ${file}: ${cause}`,
    file,
    cause: code ?? 'unknown',
  };
}

/**
 * What an append rejects with while the session file cannot be written: nothing of it was recorded, in the file
 * or in memory. Callers that answer a client turn it into the stable code `session_file_unwritable`.
 */
export class SessionFileUnwritable extends Error {
  override readonly name = 'SessionFileUnwritable';
  readonly code = 'session_file_unwritable';

  constructor(readonly fault: SessionFileFault) {
    super(fault.message);
  }
}

/** Whether a thrown value is the session file's fault (and so a stable code, not an internal error). */
export function isSessionFileUnwritable(error: unknown): error is SessionFileUnwritable {
  return error instanceof SessionFileUnwritable;
}
