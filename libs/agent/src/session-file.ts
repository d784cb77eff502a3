import { constants } from 'node:fs';
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { err, ok, type Result } from 'neverthrow';
import { AppendQueue } from './append-queue';
import type { SessionEntry, SessionHeader } from '@pi/agent-contract';
import { errorCode, errorMessage } from './error-text';
import type { OpenError } from './harness-types';
import { acquireSessionLock, type SessionLock } from './session-lock';
import { parseSessionFile } from './session-file-parse';

export interface OpenedSessionFile {
  file: SessionFile;
  header: SessionHeader;
  entries: SessionEntry[];
  /** What restoring found and repaired, in words for a person. */
  recovery: string[];
}

/** Whether an append must reach the disk (fdatasync) before its promise resolves. */
export type Durability = 'synced' | 'buffered';

/**
 * The append-only JSONL file of one session: a header line, then one entry per line. The process that
 * opens it holds `<file>.lock` until close, so it is the only writer.
 */
export class SessionFile {
  readonly path: string;
  readonly #handle: FileHandle;
  readonly #lock: SessionLock;
  readonly #queue = new AppendQueue();

  private constructor(path: string, handle: FileHandle, lock: SessionLock) {
    this.path = path;
    this.#handle = handle;
    this.#lock = lock;
  }

  /** Creates the directory (0700) and file (0600) when missing; restores and repairs them when present. */
  static async open(path: string, newHeader: () => SessionHeader): Promise<Result<OpenedSessionFile, OpenError>> {
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
      const restored = await restore(path, handle, newHeader);
      if (restored.isErr()) {
        await handle.close();
        await lock.value.release();
        return err(restored.error);
      }
      return ok({ file: new SessionFile(path, handle, lock.value), ...restored.value });
    } catch (error) {
      await handle?.close().catch(() => undefined);
      await lock.value.release();
      return err(unreadable(`cannot read or repair the session file: ${errorMessage(error)}`));
    }
  }

  /** Appends one entry as one line, after every earlier append; `synced` resolves only once it is on disk. */
  append(entry: SessionEntry, durability: Durability): Promise<void> {
    const line = Buffer.from(`${JSON.stringify(entry)}\n`);
    return this.#queue.enqueue(async () => {
      await writeFully(this.#handle, line);
      if (durability === 'synced') await this.#handle.datasync();
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
}

type Restored = Omit<OpenedSessionFile, 'file'>;

async function restore(
  path: string,
  handle: FileHandle,
  newHeader: () => SessionHeader,
): Promise<Result<Restored, OpenError>> {
  const parsed = parseSessionFile(await handle.readFile());
  if (parsed.isErr()) return err({ code: 'corrupt', message: `${path}: ${parsed.error.message}`, file: path });
  const { header, entries, tornTail } = parsed.value;
  const recovery: string[] = [];
  if (tornTail !== null) {
    await handle.truncate(tornTail.offset);
    await handle.datasync();
    recovery.push(`dropped a torn final line of ${tornTail.bytes} bytes (line ${entries.length + (header ? 2 : 1)})`);
  }
  if (header !== null) return ok({ header, entries, recovery });
  if (tornTail !== null) recovery.push('the file held no complete header, so the session starts afresh');
  const fresh = newHeader();
  await writeFully(handle, Buffer.from(`${JSON.stringify(fresh)}\n`));
  await handle.datasync();
  await syncDirectory(dirname(path));
  return ok({ header: fresh, entries, recovery });
}

/** A write may be partial (for example on a full disk); loop until every byte is written or it throws. */
async function writeFully(handle: FileHandle, bytes: Buffer): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset, null);
    offset += bytesWritten;
  }
}

/** Makes the new file's directory entry durable too, so a crash cannot lose the file itself. */
export async function syncDirectory(directory: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(directory, constants.O_RDONLY);
    await handle.sync();
  } catch (error) {
    // Some filesystems refuse fsync on a directory; the file's own data is already synced.
    if (errorCode(error) !== 'EINVAL' && errorCode(error) !== 'EISDIR') throw error;
  } finally {
    await handle?.close();
  }
}
