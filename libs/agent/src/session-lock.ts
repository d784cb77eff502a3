import { randomUUID } from 'node:crypto';
import { link, readFile, unlink, writeFile } from 'node:fs/promises';
import { err, ok, type Result } from 'neverthrow';
import { errorCode, errorMessage } from './error-text';

export interface SessionLock {
  readonly path: string;
  release(): Promise<void>;
}

export type LockError = { code: 'locked' | 'unreadable'; message: string };

/** The locks this process holds, to tell its own lock from a dead process's that had the same pid. */
const HELD_HERE = new Set<string>();

/** Two dead holders in a row would be odd; more than that means something keeps re-creating the lock. */
const TAKEOVER_ATTEMPTS = 3;

/**
 * Takes `<file>.lock`, holding this process's pid, so that two processes never append to one session.
 * The pid is written to a private temporary file first and then hard-linked into place: link() fails
 * with EEXIST atomically, like O_EXCL, but the lock can never be seen half-written. A lock whose pid is
 * no longer alive is stale (its holder crashed) and is taken over.
 */
export async function acquireSessionLock(file: string): Promise<Result<SessionLock, LockError>> {
  const path = `${file}.lock`;
  for (let attempt = 0; attempt < TAKEOVER_ATTEMPTS; attempt += 1) {
    const linked = await linkNewLock(path);
    if (linked.isErr()) return err(linked.error);
    if (linked.value) {
      HELD_HERE.add(path);
      return ok({
        path,
        release: () => {
          HELD_HERE.delete(path);
          return releaseLock(path);
        },
      });
    }
    const holder = await readHolder(path);
    // After a container restart the new process often gets the dead holder's pid: our own pid is stale
    // unless this process really holds the lock.
    const heldHere = holder === process.pid && HELD_HERE.has(path);
    if (holder !== null && (heldHere || (holder !== process.pid && isAlive(holder)))) {
      return err({ code: 'locked', message: `${file} is in use by process ${holder} (lock ${path})` });
    }
    // Stale (dead holder, or not a pid at all): remove it and try again. Two processes taking over the
    // same stale lock at once can race here; the window is a crash recovery, not the normal path.
    try {
      await unlink(path);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') {
        return err({ code: 'unreadable', message: `cannot remove the stale lock ${path}: ${errorMessage(error)}` });
      }
    }
  }
  return err({ code: 'locked', message: `${file}: could not take over the stale lock ${path}` });
}

/** ok(true) when this process now holds the lock, ok(false) when another file is already in place. */
async function linkNewLock(path: string): Promise<Result<boolean, LockError>> {
  const temporary = `${path}.${process.pid}.${randomUUID()}`;
  try {
    await writeFile(temporary, `${process.pid}\n`, { mode: 0o600, flag: 'wx' });
    await link(temporary, path);
    return ok(true);
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return ok(false);
    return err({ code: 'unreadable', message: `cannot create the lock ${path}: ${errorMessage(error)}` });
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
}

async function releaseLock(path: string): Promise<void> {
  // Only remove the lock if it is still ours: a lock file is never taken from a live holder, but a
  // hand-edited or replaced lock must not be deleted from under its real holder.
  if ((await readHolder(path)) === process.pid) await unlink(path).catch(() => undefined);
}

async function readHolder(path: string): Promise<number | null> {
  try {
    const text = (await readFile(path, 'utf8')).trim();
    return /^[1-9][0-9]*$/.test(text) ? Number(text) : null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else — alive all the same.
    return errorCode(error) === 'EPERM';
  }
}
