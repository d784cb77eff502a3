import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { err, ok, type Result } from 'neverthrow';
import { LATEST_SCHEMA_VERSION, NewerSchemaError, applyMigrations, readSchemaVersion } from './migrations';
import { DatabaseSync, SQLITE_CODES, pragmaValue, sqliteErrorCode, type Database } from './sqlite-driver';
import { SESSION_REPO_ERROR_CODES, sessionRepoError, type SessionRepoError } from './session-repo-error';

/** How long a statement waits for another connection's write lock before it fails as `storage`. */
export const BUSY_TIMEOUT_MS = 5000;

/**
 * Opens (creating it, private, when missing) and migrates the database file. A file that is not a SQLite database,
 * or whose schema is newer than this code's, is refused before anything is written to it.
 */
export function openDatabase(file: string, now: () => Date): Result<Database, SessionRepoError> {
  let db: Database | undefined;
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    createPrivateFile(file);
    db = new DatabaseSync(file);
    // Connection settings only: none of these writes to the file.
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.exec('PRAGMA foreign_keys = ON');
    db.exec('PRAGMA synchronous = NORMAL');
    const found = readSchemaVersion(db);
    if (found > LATEST_SCHEMA_VERSION) throw new NewerSchemaError(found, LATEST_SCHEMA_VERSION);
    const mode = pragmaValue(db, 'journal_mode = WAL');
    if (mode !== 'wal') throw new Error(`journal_mode is ${String(mode)}, not wal`);
    applyMigrations(db, now().toISOString());
    return ok(db);
  } catch (error) {
    db?.close();
    return err(sessionRepoError(SESSION_REPO_ERROR_CODES.storage, describeOpenFailure(file, error)));
  }
}

/** An empty file is a valid, empty SQLite database; creating it here gives it mode 0600 (SQLite's own is 0644). */
function createPrivateFile(file: string): void {
  try {
    closeSync(openSync(file, 'wx', 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

function describeOpenFailure(file: string, error: unknown): string {
  if (error instanceof NewerSchemaError)
    return (
      `${file} was made by a newer pi (schema version ${error.found}; this pi knows up to ${error.known}); ` +
      'it was left untouched'
    );
  if (sqliteErrorCode(error) === SQLITE_CODES.notADatabase) return `${file} is not a SQLite database`;
  const detail = error instanceof Error ? error.message : String(error);
  return `Cannot open the session records ${file}: ${detail}`;
}
