import { inImmediateTransaction, type Database } from './sqlite-driver';

/** One step of the schema. Released migrations are never edited: a change is a new, higher version. */
export interface Migration {
  readonly version: number;
  readonly sql: string;
}

/** The schema, oldest first. The status CHECK lists `SESSION_STATUSES`; a new status needs a new migration. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE sessions (
        session_id TEXT PRIMARY KEY NOT NULL,
        title TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        owner_id TEXT NOT NULL,
        cwd TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('starting', 'active', 'idle', 'closed')),
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX sessions_by_workspace ON sessions (workspace_id, updated_at DESC, session_id);
    `,
  },
  {
    // Titles nobody chose (the first prompt replaces them); every title before this was chosen.
    version: 2,
    sql: `ALTER TABLE sessions ADD COLUMN provisional_title INTEGER NOT NULL DEFAULT 0 CHECK (provisional_title IN (0, 1))`,
  },
];

/** The newest schema version this code knows. */
export const LATEST_SCHEMA_VERSION = MIGRATIONS.reduce((latest, migration) => Math.max(latest, migration.version), 0);

const CREATE_VERSION_TABLE = `
  CREATE TABLE IF NOT EXISTS schema_version (
    version INTEGER PRIMARY KEY NOT NULL,
    applied_at TEXT NOT NULL
  ) STRICT`;

/** The version of the schema in the database, 0 for a new one. Reads only: a refused database stays untouched. */
export function readSchemaVersion(db: Database): number {
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'").get();
  if (table === undefined) return 0;
  const row = db.prepare('SELECT MAX(version) AS version FROM schema_version').get() as { version: number | null };
  return row.version ?? 0;
}

/** Thrown inside the migration transaction when another, newer program migrated the file meanwhile. */
export class NewerSchemaError extends Error {
  constructor(
    readonly found: number,
    readonly known: number,
  ) {
    super(`schema version ${found} is newer than ${known}`);
  }
}

/**
 * Applies the migrations the database lacks, all in one immediate transaction (a second process opening the same
 * file waits, then finds them applied), and records each version with when it was applied. Returns the version.
 */
export function applyMigrations(
  db: Database,
  appliedAt: string,
  migrations: readonly Migration[] = MIGRATIONS,
): number {
  return inImmediateTransaction(db, () => {
    db.exec(CREATE_VERSION_TABLE);
    const current = readSchemaVersion(db);
    const latest = migrations.reduce((max, migration) => Math.max(max, migration.version), 0);
    if (current > latest) throw new NewerSchemaError(current, latest);
    const record = db.prepare('INSERT INTO schema_version (version, applied_at) VALUES (?, ?)');
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (migration.version <= current) continue;
      db.exec(migration.sql);
      record.run(migration.version, appliedAt);
    }
    return Math.max(current, latest);
  });
}
