import type { AppendHandle } from '../append-handle';

/** What the next writes meet: a failure with a system error code, after writing `tornBytes` of the first. */
export interface DiskFault {
  readonly code: 'ENOSPC' | 'EIO' | 'EROFS' | 'EDQUOT' | 'EFBIG' | (string & {});
  /** How many bytes of the first failing write reach the file before it fails (a torn line); default none. */
  readonly tornBytes?: number;
  /** Which operation fails: `write` (default) or `datasync` (the bytes are written, the sync fails). */
  readonly during?: 'write' | 'datasync';
}

/**
 * A disk that can fill up and recover, for the harness's `appendHandle` seam: while `fail` is set, every write (or
 * sync) of an append fails like Node's own errors do, and `recover()` makes the disk work again.
 */
export class FaultyDisk {
  #fault: DiskFault | null = null;
  #tornLeft = 0;
  /** How many operations failed so far. */
  failures = 0;

  fail(fault: DiskFault): void {
    this.#fault = fault;
    this.#tornLeft = fault.tornBytes ?? 0;
  }

  recover(): void {
    this.#fault = null;
  }

  /** The wrapper to give `HarnessOptions.appendHandle`. */
  readonly wrap = (handle: AppendHandle): AppendHandle => ({
    write: async (buffer, offset, length, position) => {
      const fault = this.#fault;
      if (fault === null || (fault.during ?? 'write') !== 'write')
        return handle.write(buffer, offset, length, position);
      if (this.#tornLeft > 0) {
        // A real full disk writes what fits first; the next call then fails.
        const written = await handle.write(buffer, offset, Math.min(length, this.#tornLeft), position);
        this.#tornLeft -= written.bytesWritten;
        return written;
      }
      throw this.#error(fault, 'write');
    },
    datasync: async () => {
      const fault = this.#fault;
      if (fault?.during === 'datasync') throw this.#error(fault, 'fdatasync');
      return handle.datasync();
    },
    truncate: async (length) => {
      if (this.#fault !== null) throw this.#error(this.#fault, 'ftruncate');
      return handle.truncate(length);
    },
    stat: () => handle.stat(),
  });

  #error(fault: DiskFault, syscall: string): NodeJS.ErrnoException {
    this.failures += 1;
    const text: Record<string, string> = {
      ENOSPC: 'no space left on device',
      EIO: 'i/o error',
      EROFS: 'read-only file system',
      EDQUOT: 'disk quota exceeded',
      EFBIG: 'file too large',
    };
    return Object.assign(new Error(`${fault.code}: ${text[fault.code] ?? 'failed'}, ${syscall}`), {
      code: fault.code,
      syscall,
    });
  }
}
