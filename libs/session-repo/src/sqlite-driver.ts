/**
 * The SQLite driver, in one place: `@photostructure/sqlite` has the API of Node's own `node:sqlite` and ships its
 * binaries in its npm package, so installing it compiles nothing. Once pi requires a Node whose `node:sqlite` needs no
 * flag (22.13), this file imports from `node:sqlite` instead and the package goes (see docs/decisions.md).
 */
import type { DatabaseSyncInstance, StatementSyncInstance } from '@photostructure/sqlite';

export { DatabaseSync } from '@photostructure/sqlite';

export type Database = DatabaseSyncInstance;
export type Statement = StatementSyncInstance;

/** SQLite's (extended) result codes that the store tells apart. */
export const SQLITE_CODES = {
  notADatabase: 26,
  primaryKeyViolation: 1555,
  uniqueViolation: 2067,
} as const;

/** The extended SQLite result code of an error the driver threw (`errcode`, as `node:sqlite` names it), if any. */
export function sqliteErrorCode(error: unknown): number | undefined {
  const code = (error as { errcode?: unknown } | undefined)?.errcode;
  return typeof code === 'number' ? code : undefined;
}

/** The single value of a PRAGMA that returns one (`journal_mode = WAL` gives `wal`). */
export function pragmaValue(db: Database, pragma: string): unknown {
  const row = db.prepare(`PRAGMA ${pragma}`).get() as Record<string, unknown> | undefined;
  return row === undefined ? undefined : Object.values(row)[0];
}

/**
 * Runs `work` in a `BEGIN IMMEDIATE` transaction (it takes the write lock first, so a second writer waits instead of
 * failing on upgrade): committed when `work` returns, rolled back when it throws.
 */
export function inImmediateTransaction<T>(db: Database, work: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  let result: T;
  try {
    result = work();
  } catch (error) {
    rollBack(db);
    throw error;
  }
  db.exec('COMMIT');
  return result;
}

function rollBack(db: Database): void {
  try {
    db.exec('ROLLBACK');
  } catch {
    // SQLite ends the transaction itself after some errors (a full disk, say): then there is nothing to roll back.
  }
}
