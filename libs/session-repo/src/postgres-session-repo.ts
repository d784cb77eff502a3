import { err, ok, type Result } from 'neverthrow';
import pg from 'pg';
import type { SessionRecord, SessionStatus } from '@pi/plugin-api';
import { NewerSchemaError } from './migrations';
import {
  POSTGRES_SCHEMA_VERSION,
  SCHEMA_PATTERN,
  applyPostgresMigrations,
  changeChannel,
  readPostgresSchemaVersion,
} from './postgres-migrations';
import { recordChanges } from './postgres-record-changes';
import { replicaRegistry } from './postgres-replica-registry';
import { sessionAddresses } from './postgres-session-addresses';
import { POSTGRES_STATEMENTS, toSessionRecordFromPostgres, type PostgresSessionRow } from './postgres-statements';
import { generateSessionId } from './session-id';
import type {
  SessionRepo,
  SessionRepoCreate,
  SessionRepoExpectation,
  SessionRepoOptions,
  SharedRecords,
} from './session-repo';
import {
  SESSION_REPO_ERROR_CODES,
  SessionRepoReadError,
  sessionRepoError,
  toStorageError,
  type SessionRepoError,
} from './session-repo-error';
import { checkNewRecord, checkSessionId, checkStatus, checkTitle, checkWorkspaceId } from './validate';
import { notFound, staleOr } from './write-outcome';

export interface PostgresSessionRepoOptions extends SessionRepoOptions {
  /** `postgres://user:password@host:port/database`; the role must be subject to row-level security. */
  readonly url: string;
  /** The schema that holds the tables (created when missing); `pi` unless chosen. */
  readonly schema?: string;
  /** Confines every call to one workspace's records; without it the repository is the fleet's (the coordinator's). */
  readonly workspaceId?: string;
  /** How long connecting may take before it is a `storage` error. */
  readonly connectTimeoutMs?: number;
}

/**
 * A PostgreSQL repository is one other coordinators may share: it announces record changes, from whichever process
 * made them, and keeps where the replicas sharing it, and the sessions connected to each, serve.
 */
export interface PostgresSessionRepo extends SessionRepo {
  readonly shared: SharedRecords;
}

/** Who a statement runs for: one workspace, or the fleet (every workspace, the coordinator's own authority). */
type Scope = { readonly workspaceId: string } | 'fleet';

type Outcome<T> = Result<T, SessionRepoError>;

const DEFAULT_SCHEMA = 'pi';
const GENERATED_ID_ATTEMPTS = 3;
const INITIAL_STATUS: SessionStatus = 'closed';

/**
 * Opens the records in a PostgreSQL database, migrated to this code's schema. A bad URL, a server that cannot be
 * reached, a role that row-level security would not apply to, or a newer schema: one `storage` error saying which.
 */
export async function openPostgresSessionRepo(
  options: PostgresSessionRepoOptions,
): Promise<Result<PostgresSessionRepo, SessionRepoError>> {
  const now = options.now ?? (() => new Date());
  const schema = options.schema ?? DEFAULT_SCHEMA;
  const storage = (message: string) => err(sessionRepoError(SESSION_REPO_ERROR_CODES.storage, message));
  if (!SCHEMA_PATTERN.test(schema)) return storage(`The schema name ${JSON.stringify(schema)} is not allowed`);
  if (options.workspaceId !== undefined && checkWorkspaceId(options.workspaceId).isErr())
    return storage(`The workspace ${JSON.stringify(options.workspaceId)} is not a valid workspace id`);
  const where = describeDatabase(options.url);
  if (where === undefined) return storage('The database URL must look like postgres://user@host:port/database');
  const config: pg.PoolConfig = {
    connectionString: options.url,
    options: `-c search_path=${schema}`,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    max: 8,
  };
  const pool = new pg.Pool(config);
  // An idle connection the server dropped: the next statement reports it, as a value.
  pool.on('error', () => undefined);
  try {
    const client = await pool.connect();
    try {
      await refuseBypassingRoles(client);
      const found = await readPostgresSchemaVersion(client);
      if (found > POSTGRES_SCHEMA_VERSION) throw new NewerSchemaError(found, POSTGRES_SCHEMA_VERSION);
      await applyPostgresMigrations(client, schema, now().toISOString());
    } finally {
      client.release();
    }
  } catch (error) {
    await pool.end().catch(() => undefined);
    return storage(describeOpenFailure(where, schema, error));
  }
  return ok(postgresSessionRepo(pool, config, schema, options.workspaceId, now));
}

function postgresSessionRepo(
  pool: pg.Pool,
  config: pg.PoolConfig,
  schema: string,
  confinedTo: string | undefined,
  now: () => Date,
): PostgresSessionRepo {
  let closed = false;
  const changes = recordChanges(config, schema);
  const fleet: Scope = confinedTo === undefined ? 'fleet' : { workspaceId: confinedTo };
  /** A call about one workspace runs for that workspace only, even in the fleet's repository. */
  const forWorkspace = (workspaceId: string): Scope => ({ workspaceId: confinedTo ?? workspaceId });

  /** Runs one transaction with the scope set on it; whatever the driver throws comes back as a value. */
  async function attempt<T>(
    operation: string,
    scope: Scope,
    run: (client: pg.PoolClient) => Promise<Outcome<T>>,
  ): Promise<Outcome<T>> {
    if (closed)
      return err(sessionRepoError(SESSION_REPO_ERROR_CODES.storage, `Cannot ${operation}: the repository is closed`));
    let client: pg.PoolClient | undefined;
    try {
      client = await pool.connect();
      // One round trip: the transaction and its scope (transaction-local, so the pooled connection keeps neither).
      const workspace = client.escapeLiteral(scope === 'fleet' ? '' : scope.workspaceId);
      await client.query(
        `BEGIN; SELECT set_config('pi.workspace', ${workspace}, true), ` +
          `set_config('pi.fleet', '${scope === 'fleet' ? 'on' : 'off'}', true)`,
      );
      const outcome = await run(client);
      await client.query(outcome.isOk() ? 'COMMIT' : 'ROLLBACK');
      return outcome;
    } catch (error) {
      await client?.query('ROLLBACK').catch(() => undefined);
      return err(toStorageError(error, `Cannot ${operation}`));
    } finally {
      client?.release();
    }
  }

  async function one(client: pg.PoolClient, text: string, values: unknown[]): Promise<SessionRecord | undefined> {
    const row = (await client.query<PostgresSessionRow>(text, values)).rows[0];
    return row === undefined ? undefined : toSessionRecordFromPostgres(row);
  }

  /** Why a write touched no row: no such record (in scope), a newer record than the writer read, or as it is. */
  async function unchanged(
    client: pg.PoolClient,
    sessionId: string,
    expected: SessionRepoExpectation | undefined,
  ): Promise<Outcome<SessionRecord>> {
    const current = await one(client, POSTGRES_STATEMENTS.get, [sessionId]);
    return current === undefined ? notFound(sessionId) : staleOr(current, expected);
  }

  async function insert(record: SessionRepoCreate): Promise<Outcome<SessionRecord>> {
    const fields = checkNewRecord(record);
    if (fields.isErr()) return err(fields.error);
    let chosen: string | undefined;
    if (record.sessionId !== undefined) {
      const checked = checkSessionId(record.sessionId);
      if (checked.isErr()) return err(checked.error);
      chosen = checked.value;
    }
    const at = now();
    const { title, provisionalTitle, workspaceId, ownerId, cwd } = fields.value;
    const values = (sessionId: string) => [
      sessionId,
      title,
      provisionalTitle,
      workspaceId,
      ownerId,
      cwd,
      INITIAL_STATUS,
      at.toISOString(),
    ];
    // A generated id that is taken (4 random bytes a day) is drawn again rather than reported.
    const tries = chosen === undefined ? Array.from({ length: GENERATED_ID_ATTEMPTS }, () => undefined) : [chosen];
    return attempt('create a session record', forWorkspace(workspaceId), async (client) => {
      for (const given of tries) {
        const sessionId = given ?? generateSessionId(at);
        const created = await one(client, POSTGRES_STATEMENTS.insert, values(sessionId));
        if (created !== undefined) return ok(created);
        if (chosen !== undefined)
          return err(
            sessionRepoError(SESSION_REPO_ERROR_CODES.duplicate, `A session record ${sessionId} already exists`),
          );
      }
      return err(sessionRepoError(SESSION_REPO_ERROR_CODES.duplicate, 'Every generated session id was taken'));
    });
  }

  async function read<T>(operation: string, scope: Scope, run: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const outcome = await attempt(operation, scope, async (client) => ok(await run(client)));
    if (outcome.isErr()) throw new SessionRepoReadError(outcome.error.message);
    return outcome.value;
  }

  /** An update by id: checked arguments, then the statement, then why it touched nothing when it did not. */
  function update(
    operation: string,
    sessionId: string,
    checked: Outcome<unknown>,
    text: string,
    expected: SessionRepoExpectation | undefined,
  ): Promise<Outcome<SessionRecord>> {
    const valid = checkSessionId(sessionId).andThen(() => checked);
    if (valid.isErr()) return Promise.resolve(err(valid.error));
    return attempt(operation, fleet, async (client) => {
      const at = now().toISOString();
      const row = await one(client, text, [sessionId, valid.value, at, expected?.updatedAt ?? null]);
      return row === undefined ? unchanged(client, sessionId, expected) : ok(row);
    });
  }

  return {
    create: (record) => insert(record),

    get: (sessionId) =>
      read('read a session record', fleet, (client) => one(client, POSTGRES_STATEMENTS.get, [sessionId])),

    list: (filter) =>
      read(
        'list session records',
        filter?.workspaceId === undefined ? fleet : forWorkspace(filter.workspaceId),
        async (client) =>
          (filter?.workspaceId === undefined
            ? await client.query<PostgresSessionRow>(POSTGRES_STATEMENTS.list)
            : await client.query<PostgresSessionRow>(POSTGRES_STATEMENTS.listByWorkspace, [filter.workspaceId])
          ).rows.map(toSessionRecordFromPostgres),
      ),

    rename: (sessionId, title, expected) =>
      update('rename a session record', sessionId, checkTitle(title), POSTGRES_STATEMENTS.rename, expected),

    suggestTitle: (sessionId, title, expected) =>
      update('suggest a session title', sessionId, checkTitle(title), POSTGRES_STATEMENTS.suggestTitle, expected),

    setStatus: (sessionId, status, expected) =>
      update('set a session status', sessionId, checkStatus(status), POSTGRES_STATEMENTS.setStatus, expected),

    remove: async (sessionId, expected) => {
      const valid = checkSessionId(sessionId);
      if (valid.isErr()) return err(valid.error);
      return attempt('remove a session record', fleet, async (client) => {
        const removed = await client.query(POSTGRES_STATEMENTS.remove, [sessionId, expected?.updatedAt ?? null]);
        if (removed.rowCount !== 0) return ok(undefined);
        return (await unchanged(client, sessionId, expected)).map(() => undefined);
      });
    },

    shared: {
      replicas: replicaRegistry((operation, text, values) =>
        attempt(operation, fleet, async (client) => ok((await client.query(text, values)).rows)),
      ),

      addresses: sessionAddresses((operation, scope, text, values) =>
        attempt(operation, scope === 'fleet' ? fleet : forWorkspace(scope.workspaceId), async (client) =>
          ok((await client.query(text, values)).rows),
        ),
      ),

      requestStop: async (sessionId) => {
        const valid = checkSessionId(sessionId);
        if (valid.isErr()) return err(valid.error);
        const payload = JSON.stringify({ kind: 'stop_requested', sessionId });
        return attempt('ask for a session to stop', fleet, async (client) => {
          await client.query('SELECT pg_notify($1, $2)', [changeChannel(schema), payload]);
          return ok(undefined);
        });
      },

      onChange: (listener) => changes.onChange(listener),
      listening: () => changes.listening(),
    },

    close: async () => {
      if (closed) return;
      closed = true;
      await changes.close();
      await pool.end().catch(() => undefined);
    },
  };
}

/** Refuses a role that row-level security would not apply to: the workspace policy must hold for this connection. */
async function refuseBypassingRoles(client: pg.PoolClient): Promise<void> {
  const role = await client.query<{ name: string; rolsuper: boolean; rolbypassrls: boolean }>(
    'SELECT current_user AS name, rolsuper, rolbypassrls FROM pg_roles WHERE rolname = current_user',
  );
  const found = role.rows[0];
  if (found !== undefined && (found.rolsuper || found.rolbypassrls))
    throw new Error(
      `the role ${found.name} is a superuser or bypasses row-level security, so the workspace policy would not ` +
        'hold; connect as an ordinary role',
    );
}

/** `host:port/database` of a URL (never its password), or undefined when it is not a PostgreSQL URL. */
export function describeDatabase(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') return undefined;
    if (parsed.hostname === '' && !parsed.searchParams.has('host')) return undefined;
    return `${parsed.hostname || parsed.searchParams.get('host')}:${parsed.port || '5432'}${parsed.pathname}`;
  } catch {
    return undefined;
  }
}

function describeOpenFailure(where: string, schema: string, error: unknown): string {
  if (error instanceof NewerSchemaError)
    return (
      `The session records at ${where} (schema ${schema}) were made by a newer pi (schema version ${error.found}; ` +
      `this pi knows up to ${error.known}); they were left untouched`
    );
  const detail = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown }).code;
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EHOSTUNREACH' || /timeout/i.test(detail))
    return `Cannot reach PostgreSQL at ${where}: ${detail || String(code)}`;
  return `Cannot open the session records at ${where} (schema ${schema}): ${detail}`;
}
