import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { onTestFinished } from 'vitest';
import type { NewSessionRecord } from '@pi/plugin-api';
import { testPostgres } from '@pi/test-support/postgres';
import { openPostgresSessionRepo, type PostgresSessionRepo } from '../src/postgres-session-repo';
import type { SessionRepo } from '../src/session-repo';
import { openSqliteSessionRepo, sessionRepoFile } from '../src/sqlite-session-repo';

// Registered per test: with isolate off a worker imports this module once for many test files, so a hook
// registered at import would run for the first file only.

/** A fresh directory, removed after the test. */
export async function tempDir(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'pi-session-repo-'));
  onTestFinished(() => rm(folder, { recursive: true, force: true }));
  return folder;
}

/** A clock that stands still until advanced, so `updatedAt` ordering is exact. */
export function manualClock(start = '2026-03-01T10:00:00.000Z'): { now: () => Date; advance(ms?: number): void } {
  let time = Date.parse(start);
  return {
    now: () => new Date(time),
    advance: (ms = 1000) => {
      time += ms;
    },
  };
}

/** Opens a repository on the file (closed after the test), failing the test when it cannot. */
export function openRepo(file: string, now?: () => Date): SessionRepo {
  const opened = openSqliteSessionRepo(now === undefined ? { file } : { file, now });
  if (opened.isErr()) throw new Error(`${opened.error.code}: ${opened.error.message}`);
  onTestFinished(() => opened.value.close());
  return opened.value;
}

/** A repository in a fresh data directory, at the default location. */
export async function freshRepo(now?: () => Date): Promise<{ repo: SessionRepo; file: string; dataDir: string }> {
  const dataDir = await tempDir();
  const file = sessionRepoFile(dataDir);
  return { repo: openRepo(file, now), file, dataDir };
}

export function newRecord(overrides: Partial<NewSessionRecord> = {}): NewSessionRecord {
  return {
    title: 'Fix the parser',
    workspaceId: 'w-1',
    ownerId: 'user:alice',
    cwd: '/home/alice/project',
    ...overrides,
  };
}

/** A fresh schema name: each test gets its own tables in the run's one database. */
export function freshSchema(): string {
  return `t_${randomBytes(6).toString('hex')}`;
}

/** Opens a PostgreSQL repository (closed after the test, its schema dropped), failing the test when it cannot. */
export async function openPostgresRepo(
  schema: string,
  options: { now?: () => Date; workspaceId?: string } = {},
): Promise<PostgresSessionRepo> {
  const postgres = testPostgres();
  if (!postgres.available) throw new Error(`PostgreSQL is not available: ${postgres.reason}`);
  const opened = await openPostgresSessionRepo({ url: postgres.url, schema, ...options });
  if (opened.isErr()) throw new Error(`${opened.error.code}: ${opened.error.message}`);
  onTestFinished(async () => {
    await opened.value.close();
    await withClient(postgres.url, (client) => client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
  });
  return opened.value;
}

/** A plain connection as the test role (subject to the workspace policy), for what a repository never does. */
export async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** One store the contract runs on: a repository on fresh storage, and another repository on the same storage. */
export interface RepoKind {
  readonly name: string;
  fresh(now?: () => Date): Promise<{ repo: SessionRepo; reopen(now?: () => Date): Promise<SessionRepo> }>;
}

const SQLITE: RepoKind = {
  name: 'SQLite',
  fresh: async (now) => {
    const { repo, file } = await freshRepo(now);
    return { repo, reopen: async (later) => openRepo(file, later ?? now) };
  },
};

const POSTGRES: RepoKind = {
  name: 'PostgreSQL',
  fresh: async (now) => {
    const schema = freshSchema();
    const repo = await openPostgresRepo(schema, now === undefined ? {} : { now });
    return { repo, reopen: (later) => openPostgresRepo(schema, { now: later ?? now ?? (() => new Date()) }) };
  },
};

/** The stores to run the contract on here, and why PostgreSQL is missing when it is. */
export function repoKinds(): { kinds: RepoKind[]; skipped?: string } {
  const postgres = testPostgres();
  return postgres.available ? { kinds: [SQLITE, POSTGRES] } : { kinds: [SQLITE], skipped: postgres.reason };
}
