import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SESSION_STATUSES } from '@pi/plugin-api';
import { tempDir } from '../test/repo-fixture';
import { LATEST_SCHEMA_VERSION, MIGRATIONS, applyMigrations, readSchemaVersion, type Migration } from './migrations';
import { DatabaseSync, type Database } from './sqlite-driver';

async function scratchDatabase(): Promise<Database> {
  return new DatabaseSync(join(await tempDir(), 'scratch.db'));
}

describe('migrations', () => {
  it('are ordered by version, starting at 1, without gaps', () => {
    expect(MIGRATIONS.map((migration) => migration.version)).toEqual(MIGRATIONS.map((_, index) => index + 1));
  });

  it('apply only the versions a database lacks, each once', async () => {
    const db = await scratchDatabase();
    try {
      expect(readSchemaVersion(db)).toBe(0);
      expect(applyMigrations(db, '2026-03-01T10:00:00.000Z', MIGRATIONS.slice(0, 1))).toBe(1);
      const next: Migration = { version: LATEST_SCHEMA_VERSION + 1, sql: 'CREATE TABLE later (x TEXT)' };
      expect(applyMigrations(db, '2026-03-02T10:00:00.000Z', [...MIGRATIONS, next])).toBe(next.version);
      expect(applyMigrations(db, '2026-03-03T10:00:00.000Z', [...MIGRATIONS, next])).toBe(next.version);
      expect(db.prepare('SELECT version, applied_at FROM schema_version ORDER BY version').all()).toEqual([
        { version: 1, applied_at: '2026-03-01T10:00:00.000Z' },
        ...[...MIGRATIONS.slice(1), next].map(({ version }) => ({ version, applied_at: '2026-03-02T10:00:00.000Z' })),
      ]);
    } finally {
      db.close();
    }
  });

  it('roll back entirely when one step fails', async () => {
    const db = await scratchDatabase();
    try {
      const broken: Migration = { version: LATEST_SCHEMA_VERSION + 1, sql: 'CREATE TABLE ok_table (x TEXT); NOT SQL' };
      expect(() => applyMigrations(db, '2026-03-01T10:00:00.000Z', [...MIGRATIONS, broken])).toThrow();
      expect(readSchemaVersion(db)).toBe(0);
      expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all()).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('allow exactly the statuses plugins know', async () => {
    const db = await scratchDatabase();
    try {
      applyMigrations(db, '2026-03-01T10:00:00.000Z');
      const insert = db.prepare(
        `INSERT INTO sessions (session_id, title, workspace_id, owner_id, cwd, status, created_at, updated_at)
         VALUES (?, 't', 'w', 'o', '/', ?, '2026-03-01T10:00:00.000Z', '2026-03-01T10:00:00.000Z')`,
      );
      for (const status of SESSION_STATUSES) insert.run(`s-${status}`, status);
      expect(() => insert.run('s-bad', 'running')).toThrow(/CHECK constraint/);
    } finally {
      db.close();
    }
  });

  it('keep the titles of records made before titles could be provisional as chosen ones', async () => {
    const db = await scratchDatabase();
    try {
      applyMigrations(db, '2026-03-01T10:00:00.000Z', MIGRATIONS.slice(0, 1));
      db.prepare(
        "INSERT INTO sessions VALUES ('s-old', 'mine', 'w', 'o', '/', 'closed', '2026-03-01T10:00:00.000Z', '2026-03-01T10:00:00.000Z')",
      ).run();
      applyMigrations(db, '2026-03-02T10:00:00.000Z');
      expect(db.prepare('SELECT title, provisional_title FROM sessions').all()).toEqual([
        { title: 'mine', provisional_title: 0 },
      ]);
      expect(() => db.prepare("UPDATE sessions SET provisional_title = 2 WHERE session_id = 's-old'").run()).toThrow(
        /CHECK constraint/,
      );
    } finally {
      db.close();
    }
  });
});
