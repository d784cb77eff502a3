/**
 * Why the session file cannot be written (a full disk, an I/O error, a read-only remount). While a fault stands,
 * everything that must be recorded is refused with this code and nothing is half-applied in memory; the next
 * write tries again (cutting back whatever a failed write left at the end of the file first), and the fault
 * clears once one succeeds.
 */
export interface SessionFileFault {
  readonly code: 'session_file_unwritable';
  /** For a person: names the file and the cause, e.g. "… : no space left on device (ENOSPC)". */
  readonly message: string;
  readonly file: string;
  /** The system error code (ENOSPC, EIO, EROFS, …), or `unknown`. */
  readonly cause: string;
}
