import { EntryProjectors } from './entry-projectors';
import { SessionStorage } from './session-storage';
import { readStorageFile, storageFile, storageWriter } from './storage-file';

/** The session's bound storage and entry projectors, as the session host holds them. */
export interface SessionRecords {
  readonly storage: SessionStorage;
  readonly projectors: EntryProjectors;
  /** Resolves once every change so far is on disk (the host awaits it when it stops). */
  flushed(): Promise<void>;
}

/**
 * Reads what earlier processes of the session stored (beside its file) and opens the storage on it; every later
 * change is written back. A file that cannot be read is reported through `log` and the session starts empty.
 */
export async function openSessionRecords(
  sessionFile: string,
  onFailure: (owner: string, message: string) => void,
  log?: (line: string) => void,
): Promise<SessionRecords> {
  const file = storageFile(sessionFile);
  const stored = await readStorageFile(file);
  if (stored.problem !== null) {
    log?.(stored.problem);
    onFailure('host', stored.problem);
  }
  const writer = storageWriter(file, (message) => onFailure('host', message));
  const storage: SessionStorage = new SessionStorage(stored.contents, () => writer.write(() => storage.contents()));
  return { storage, projectors: new EntryProjectors(onFailure), flushed: () => writer.flushed() };
}
