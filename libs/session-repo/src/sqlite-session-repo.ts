import { join, resolve } from 'node:path';
import { err, ok, type Result } from 'neverthrow';
import type { SessionRecord, SessionStatus } from '@pi/plugin-api';
import { openDatabase } from './open-database';
import { generateSessionId } from './session-id';
import type { SessionRepo, SessionRepoCreate, SessionRepoExpectation, SessionRepoOptions } from './session-repo';
import {
  SESSION_REPO_ERROR_CODES,
  SessionRepoReadError,
  sessionRepoError,
  toStorageError,
  type SessionRepoError,
} from './session-repo-error';
import { notFound, staleOr } from './write-outcome';
import { sessionStatements, toSessionRecord } from './session-statements';
import { SQLITE_CODES, sqliteErrorCode, type Database } from './sqlite-driver';
import { checkNewRecord, checkSessionId, checkStatus, checkTitle } from './validate';

export interface SqliteSessionRepoOptions extends SessionRepoOptions {
  /** The database file; its directory is created (mode 0700) when missing. */
  readonly file: string;
}

/** Where the coordinator keeps its session records under pi's data directory. */
export function sessionRepoFile(dataDir: string): string {
  return join(dataDir, 'coordinator', 'sessions.db');
}

/** Opens the records in a SQLite file (WAL, migrated to this code's schema). Failing to open is a `storage` error. */
export function openSqliteSessionRepo(options: SqliteSessionRepoOptions): Result<SessionRepo, SessionRepoError> {
  const now = options.now ?? (() => new Date());
  return openDatabase(resolve(options.file), now).map((db) => sqliteSessionRepo(db, now));
}

type Outcome<T> = Result<T, SessionRepoError>;

const GENERATED_ID_ATTEMPTS = 3;

/** A new record has no process yet. */
const INITIAL_STATUS: SessionStatus = 'closed';

function sqliteSessionRepo(db: Database, now: () => Date): SessionRepo {
  const statements = sessionStatements(db);
  let closed = false;

  /** Runs one operation; whatever the driver throws comes back as a value. */
  function attempt<T>(operation: string, run: () => Outcome<T>): Outcome<T> {
    if (closed)
      return err(sessionRepoError(SESSION_REPO_ERROR_CODES.storage, `Cannot ${operation}: the repository is closed`));
    try {
      return run();
    } catch (error) {
      return err(toStorageError(error, `Cannot ${operation}`));
    }
  }

  /** Why a write touched no row: no such record, a record changed since the writer read it, or else as it is. */
  function unchanged(sessionId: string, expected: SessionRepoExpectation | undefined): Outcome<SessionRecord> {
    const current = statements.get.get(sessionId);
    return current === undefined ? notFound(sessionId) : staleOr(toSessionRecord(current), expected);
  }

  function insert(record: SessionRepoCreate): Outcome<SessionRecord> {
    return checkNewRecord(record).andThen((fields) => {
      const at = now();
      const row = {
        ...fields,
        provisionalTitle: fields.provisionalTitle ? (1 as const) : (0 as const),
        status: INITIAL_STATUS,
        at: at.toISOString(),
      };
      if (record.sessionId !== undefined)
        return checkSessionId(record.sessionId).andThen((sessionId) => {
          const inserted = tryInsert({ ...row, sessionId });
          return inserted === undefined
            ? err(sessionRepoError(SESSION_REPO_ERROR_CODES.duplicate, `A session record ${sessionId} already exists`))
            : ok(inserted);
        });
      // A generated id that is taken (4 random bytes a day) is drawn again rather than reported.
      for (let tries = 0; tries < GENERATED_ID_ATTEMPTS; tries += 1) {
        const inserted = tryInsert({ ...row, sessionId: generateSessionId(at) });
        if (inserted !== undefined) return ok(inserted);
      }
      return err(sessionRepoError(SESSION_REPO_ERROR_CODES.duplicate, 'Every generated session id was taken'));
    });
  }

  /** Inserts the row; undefined when its id is taken. */
  function tryInsert(row: Parameters<typeof statements.insert.get>[0]): SessionRecord | undefined {
    try {
      const inserted = statements.insert.get(row);
      if (inserted === undefined) throw new Error('the insert returned no row');
      return toSessionRecord(inserted);
    } catch (error) {
      if (isUniqueViolation(error)) return undefined;
      throw error;
    }
  }

  return {
    create: async (record) => attempt('create a session record', () => insert(record)),

    get: async (sessionId) => {
      const found = attempt('read a session record', () => ok(statements.get.get(sessionId)));
      if (found.isErr()) throw new SessionRepoReadError(found.error.message);
      return found.value === undefined ? undefined : toSessionRecord(found.value);
    },

    list: async (filter) => {
      const rows = attempt('list session records', () =>
        ok(
          filter?.workspaceId === undefined
            ? statements.list.all()
            : statements.listByWorkspace.all(filter.workspaceId),
        ),
      );
      if (rows.isErr()) throw new SessionRepoReadError(rows.error.message);
      return rows.value.map(toSessionRecord);
    },

    rename: async (sessionId, title, expected) =>
      attempt('rename a session record', () =>
        checkSessionId(sessionId)
          .andThen(() => checkTitle(title))
          .andThen((checked) => {
            const at = now().toISOString();
            const row = statements.rename.get({ sessionId, title: checked, at, expected: expected?.updatedAt ?? null });
            return row === undefined ? unchanged(sessionId, expected) : ok(toSessionRecord(row));
          }),
      ),

    suggestTitle: async (sessionId, title, expected) =>
      attempt('suggest a session title', () =>
        checkSessionId(sessionId)
          .andThen(() => checkTitle(title))
          .andThen((checked) => {
            const at = now().toISOString();
            const row = statements.suggestTitle.get({
              sessionId,
              title: checked,
              at,
              expected: expected?.updatedAt ?? null,
            });
            // Not replaced: a chosen title stays, and the record comes back as it is.
            return row === undefined ? unchanged(sessionId, expected) : ok(toSessionRecord(row));
          }),
      ),

    setStatus: async (sessionId, status, expected) =>
      attempt('set a session status', () =>
        checkSessionId(sessionId)
          .andThen(() => checkStatus(status))
          .andThen((checked) => {
            const at = now().toISOString();
            const row = statements.setStatus.get({
              sessionId,
              status: checked,
              at,
              expected: expected?.updatedAt ?? null,
            });
            return row === undefined ? unchanged(sessionId, expected) : ok(toSessionRecord(row));
          }),
      ),

    remove: async (sessionId, expected) =>
      attempt('remove a session record', () =>
        checkSessionId(sessionId).andThen(() =>
          statements.remove.run({ sessionId, expected: expected?.updatedAt ?? null }).changes === 0
            ? unchanged(sessionId, expected).map(() => undefined)
            : ok(undefined),
        ),
      ),

    close: async () => {
      if (closed) return;
      closed = true;
      try {
        db.close();
      } catch {
        // Closing is releasing: a driver that cannot close leaves nothing this repository could do about it.
      }
    },
  };
}

function isUniqueViolation(error: unknown): boolean {
  const code = sqliteErrorCode(error);
  return code === SQLITE_CODES.primaryKeyViolation || code === SQLITE_CODES.uniqueViolation;
}
