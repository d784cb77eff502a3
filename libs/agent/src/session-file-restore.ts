import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { err, ok, type Result } from 'neverthrow';
import type { SessionEntry, SessionHeader } from '@pi/agent-contract';
import { writeFully } from './append-handle';
import { errorCode } from './error-text';
import type { OpenError } from './harness-types';
import { parseSessionFile } from './session-file-parse';

export interface RestoredSessionFile {
  header: SessionHeader;
  entries: SessionEntry[];
  /** What restoring found and repaired, in words for a person. */
  recovery: string[];
}

/** Reads the file, cuts off a torn last line, and writes a header when it has none. */
export async function restoreSessionFile(
  path: string,
  handle: FileHandle,
  newHeader: () => SessionHeader,
): Promise<Result<RestoredSessionFile, OpenError>> {
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
