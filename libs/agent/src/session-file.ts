import { constants } from 'node:fs';
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { err, ok, type Result } from 'neverthrow';
import type { SessionEntry, SessionFileFault, SessionHeader } from '@pi/agent-contract';
import { writeFully, type AppendHandle } from './append-handle';
import { AppendQueue } from './append-queue';
import { errorMessage } from './error-text';
import type { OpenError } from './harness-types';
import { acquireSessionLock, type SessionLock } from './session-lock';
import { restoreSessionFile, type RestoredSessionFile } from './session-file-restore';
import { SessionFileUnwritable, sessionFileFault } from './session-file-fault';

export interface OpenedSessionFile extends RestoredSessionFile {
  file: SessionFile;
}

/** Whether an append must reach the disk (fdatasync) before its promise resolves. */
export type Durability = 'synced' | 'buffered';

/** Called inside the append's turn, before the next append starts, so memory follows the file exactly. */
export interface AppendOutcome {
  written(): void;
  /** Nothing of it is in the file (or it will be cut off before the next write). */
  refused(): void;
}

/**
 * The append-only JSONL file of one session: a header line, then one entry per line. The process that
 * opens it holds `<file>.lock` until close, so it is the only writer.
 *
 * A failed append (a full disk, an I/O error, a read-only remount) is refused whole, and so is every append
 * already queued behind it (their parents may be the entries that failed). The next append first cuts the file
 * back to the end of the last acknowledged line — restart's torn-tail repair, made stricter: a complete line
 * whose sync failed is cut too, since nobody was told it was written — and then writes. So a torn line is only
 * ever the last, and the file holds exactly what memory holds.
 */
export class SessionFile {
  readonly path: string;
  readonly #handle: FileHandle;
  readonly #appends: AppendHandle;
  readonly #lock: SessionLock;
  readonly #queue = new AppendQueue();
  /** Bytes of complete, acknowledged lines: where the file is cut back to after a failed write. */
  #size: number;
  /** A failed write may have left bytes after `#size`. */
  #tornTail = false;
  /** How many appends have failed: an append queued before the latest failure is refused. */
  #failures = 0;
  #fault: SessionFileFault | null = null;
  #faultListener: (fault: SessionFileFault | null) => void = () => undefined;

  private constructor(path: string, handle: FileHandle, appends: AppendHandle, lock: SessionLock, size: number) {
    this.path = path;
    this.#handle = handle;
    this.#appends = appends;
    this.#lock = lock;
    this.#size = size;
  }

  /**
   * Creates the directory (0700) and file (0600) when missing; restores and repairs them when present.
   * `appendHandle` wraps the handle appends use (a test's fault injection); restoring uses the file directly.
   */
  static async open(
    path: string,
    newHeader: () => SessionHeader,
    appendHandle: (handle: AppendHandle) => AppendHandle = (handle) => handle,
  ): Promise<Result<OpenedSessionFile, OpenError>> {
    const unreadable = (message: string): OpenError => ({ code: 'unreadable', message, file: path });
    try {
      await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    } catch (error) {
      return err(unreadable(`cannot create the session directory: ${errorMessage(error)}`));
    }
    const lock = await acquireSessionLock(path);
    if (lock.isErr()) return err({ ...lock.error, file: path });
    let handle: FileHandle | undefined;
    try {
      handle = await open(path, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT, 0o600);
      const restored = await restoreSessionFile(path, handle, newHeader);
      if (restored.isErr()) {
        await handle.close();
        await lock.value.release();
        return err(restored.error);
      }
      const { size } = await handle.stat();
      const file = new SessionFile(path, handle, appendHandle(handle), lock.value, size);
      return ok({ file, ...restored.value });
    } catch (error) {
      await handle?.close().catch(() => undefined);
      await lock.value.release();
      return err(unreadable(`cannot read or repair the session file: ${errorMessage(error)}`));
    }
  }

  /** The fault of the latest append, or null when it succeeded (or none has failed). */
  get fault(): SessionFileFault | null {
    return this.#fault;
  }

  /** How many appends have failed so far: a writer that sees it change chains from what was acknowledged. */
  get failures(): number {
    return this.#failures;
  }

  /** Told when the fault appears, changes, or clears (`null`); the one listener is the harness's. */
  onFaultChanged(listener: (fault: SessionFileFault | null) => void): void {
    this.#faultListener = listener;
  }

  /**
   * Appends the entries as one write, after every earlier append; `synced` resolves only once they are on disk.
   * Rejects with SessionFileUnwritable when they could not be written (or an append queued before them failed).
   */
  append(entries: readonly SessionEntry[], durability: Durability, outcome: AppendOutcome): Promise<void> {
    const bytes = Buffer.from(entries.map((entry) => `${JSON.stringify(entry)}\n`).join(''));
    const failuresBefore = this.#failures;
    const queued = this.#queue.enqueue(async () => {
      if (this.#failures !== failuresBefore) {
        outcome.refused();
        throw new SessionFileUnwritable(this.#fault ?? sessionFileFault(this.path, 'an earlier write failed'));
      }
      try {
        await this.#cutTornTail();
        await writeFully(this.#appends, bytes);
        if (durability === 'synced') await this.#appends.datasync();
      } catch (error) {
        this.#tornTail = true;
        this.#failures += 1;
        outcome.refused();
        throw new SessionFileUnwritable(this.#setFault(sessionFileFault(this.path, error)));
      }
      this.#size += bytes.length;
      outcome.written();
      this.#setFault(null);
    });
    // A closed file refuses before the turn starts: memory must not wait for an entry that never comes.
    return queued.catch((error: unknown) => {
      if (!(error instanceof SessionFileUnwritable)) outcome.refused();
      throw error;
    });
  }

  /** Refuses further appends, lets the queued ones finish, then closes the file and releases the lock. */
  async close(): Promise<void> {
    await this.#queue.close(`the session file ${this.path} is closed`);
    await this.#handle.close();
    await this.#lock.release();
  }

  /** Stops accepting appends at once (the queued ones still run); `close` finishes the job. */
  refuseAppends(): void {
    void this.#queue.close(`the session file ${this.path} is closing`);
  }

  /** After a failed write: back to the last acknowledged line, durably, before anything new is written. */
  async #cutTornTail(): Promise<void> {
    if (!this.#tornTail) return;
    const { size } = await this.#appends.stat();
    if (size < this.#size)
      throw new Error(`the file is ${size} bytes, shorter than the ${this.#size} bytes already written to it`);
    if (size > this.#size) {
      await this.#appends.truncate(this.#size);
      await this.#appends.datasync();
    }
    this.#tornTail = false;
  }

  #setFault<T extends SessionFileFault | null>(fault: T): T {
    const changed = fault?.message !== this.#fault?.message;
    this.#fault = fault;
    if (changed) this.#faultListener(fault);
    return fault;
  }
}
