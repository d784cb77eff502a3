import type { ClientBase } from 'pg';
import { SESSION_STATUSES } from '@pi/plugin-api';
import { NewerSchemaError, type Migration } from './migrations';

/** The channel a schema's record changes are announced on (`LISTEN`), one per schema. */
export function changeChannel(schema: string): string {
  return `${schema}_session_records`;
}

const STATUSES = SESSION_STATUSES.map((status) => `'${status}'`).join(', ');

/**
 * The PostgreSQL schema, oldest first; its own history beside SQLite's, under the same rule: released migrations are
 * never edited, and a database newer than this code is refused. Every statement runs with `search_path` set to the
 * repository's schema.
 */
export const POSTGRES_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE sessions (
        session_id text COLLATE "C" PRIMARY KEY,
        title text NOT NULL,
        provisional_title boolean NOT NULL DEFAULT false,
        workspace_id text COLLATE "C" NOT NULL,
        owner_id text NOT NULL,
        cwd text NOT NULL,
        status text NOT NULL CHECK (status IN (${STATUSES})),
        created_at timestamptz(3) NOT NULL,
        updated_at timestamptz(3) NOT NULL
      );
      CREATE INDEX sessions_by_workspace ON sessions (workspace_id, updated_at DESC, session_id);

      -- Every row is read and written for one workspace (pi.workspace) or by the fleet's own authority (pi.fleet);
      -- a statement with neither set is refused here, whatever its WHERE clause says.
      CREATE FUNCTION session_visible(workspace text) RETURNS boolean LANGUAGE plpgsql STABLE AS $$
      DECLARE
        fleet text := current_setting('pi.fleet', true);
        scope text := current_setting('pi.workspace', true);
      BEGIN
        IF fleet = 'on' THEN RETURN true; END IF;
        IF scope IS NULL OR scope = '' THEN
          RAISE EXCEPTION 'session records are read and written for one workspace, and pi.workspace is not set'
            USING ERRCODE = 'insufficient_privilege';
        END IF;
        RETURN workspace = scope;
      END $$;
      ALTER TABLE sessions ENABLE ROW LEVEL SECURITY;
      ALTER TABLE sessions FORCE ROW LEVEL SECURITY;
      CREATE POLICY sessions_by_workspace ON sessions
        USING (session_visible(workspace_id)) WITH CHECK (session_visible(workspace_id));

      -- Ids only: a notification reaches every listener whatever its workspace, so the record is re-read in scope.
      CREATE FUNCTION announce_session_change() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        changed sessions;
      BEGIN
        IF TG_OP = 'DELETE' THEN changed := OLD; ELSE changed := NEW; END IF;
        PERFORM pg_notify(TG_TABLE_SCHEMA || '_session_records', json_build_object(
          'kind', CASE TG_OP WHEN 'INSERT' THEN 'created' WHEN 'UPDATE' THEN 'updated' ELSE 'removed' END,
          'sessionId', changed.session_id,
          'workspaceId', changed.workspace_id,
          'updatedAt', to_char(changed.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
        )::text);
        RETURN NULL;
      END $$;
      CREATE TRIGGER sessions_created_or_removed AFTER INSERT OR DELETE ON sessions
        FOR EACH ROW EXECUTE FUNCTION announce_session_change();
      CREATE TRIGGER sessions_updated AFTER UPDATE ON sessions
        FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION announce_session_change();
    `,
  },
  {
    version: 2,
    sql: `
      -- Where each coordinator replica serves sessions (its wss: URL) and when it last said so, in the server's
      -- clock: the sessions a replica starts are handed the others' URLs from here. Fleet data, no workspace's.
      CREATE TABLE replicas (
        url text COLLATE "C" PRIMARY KEY CHECK (url ~ '^wss?://' AND length(url) <= 2048),
        seen_at timestamptz(3) NOT NULL
      );
    `,
  },
  {
    version: 3,
    sql: `
      -- Where a session on another host serves presentations (its wss: URL), written by the replica it is connected
      -- to (\`replica\`, that process's id), so any replica's gateway can relay to it. A workspace's, like its record.
      CREATE TABLE session_addresses (
        session_id text COLLATE "C" PRIMARY KEY,
        workspace_id text COLLATE "C" NOT NULL,
        url text NOT NULL CHECK (url ~ '^wss://' AND length(url) <= 2048),
        replica text NOT NULL,
        seen_at timestamptz(3) NOT NULL
      );
      ALTER TABLE session_addresses ENABLE ROW LEVEL SECURITY;
      ALTER TABLE session_addresses FORCE ROW LEVEL SECURITY;
      CREATE POLICY session_addresses_by_workspace ON session_addresses
        USING (session_visible(workspace_id)) WITH CHECK (session_visible(workspace_id));
    `,
  },
];

export const POSTGRES_SCHEMA_VERSION = POSTGRES_MIGRATIONS.reduce((latest, m) => Math.max(latest, m.version), 0);

/** The schema's version, 0 for a new one. Reads only: a refused database stays untouched. */
export async function readPostgresSchemaVersion(client: ClientBase): Promise<number> {
  const table = await client.query<{ found: string | null }>("SELECT to_regclass('schema_version')::text AS found");
  if (table.rows[0]?.found == null) return 0;
  const row = await client.query<{ version: number | null }>('SELECT MAX(version) AS version FROM schema_version');
  return row.rows[0]?.version ?? 0;
}

/**
 * Applies the migrations the schema lacks in one transaction, under an advisory lock so that replicas opening the
 * same database at once take turns (the second finds them applied). Returns the version.
 */
export async function applyPostgresMigrations(
  client: ClientBase,
  schema: string,
  appliedAt: string,
  migrations: readonly Migration[] = POSTGRES_MIGRATIONS,
): Promise<number> {
  const latest = migrations.reduce((max, migration) => Math.max(max, migration.version), 0);
  await client.query('BEGIN');
  try {
    await client.query("SELECT pg_advisory_xact_lock(hashtext($1 || '.pi_session_records'))", [schema]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(schema)}`);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_version (version integer PRIMARY KEY, applied_at timestamptz(3) NOT NULL)',
    );
    const current = await readPostgresSchemaVersion(client);
    if (current > latest) throw new NewerSchemaError(current, latest);
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (migration.version <= current) continue;
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_version (version, applied_at) VALUES ($1, $2)', [
        migration.version,
        appliedAt,
      ]);
    }
    await client.query('COMMIT');
    return Math.max(current, latest);
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** A schema name this repository accepts: lower-case letters, digits and `_`, so it needs no quoting anywhere. */
export const SCHEMA_PATTERN = /^[a-z_][a-z0-9_]{0,39}$/;

export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
