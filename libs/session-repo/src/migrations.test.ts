import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SESSION_STATUSES } from '@pi/plugin-api';
import { tempDir } from '../test/repo-fixture';
import { MIGRATIONS, applyMigrations, readSchemaVersion, type Migration } from './migrations';

async function scratchDatabase(): Promise<Database.Database> {
  return new Database(join(await tempDir(), 'scratch.db'));
}

describe('migrations', () => {
  it('are ordered by version, starting at 1, without gaps', () => {
    expect(MIGRATIONS.map((migration) => migration.version)).toEqual(MIGRATIONS.map((_, index) => index + 1));
  });

  it('apply only the versions a database lacks, each once', async () => {
    const db = await scratchDatabase();
    try {
      expect(readSchemaVersion(db)).toBe(0);
      expect(applyMigrations(db, '2026-03-01T10:00:00.000Z')).toBe(1);
      const next: Migration = { version: 2, sql: 'CREATE TABLE second (x TEXT)' };
      expect(applyMigrations(db, '2026-03-02T10:00:00.000Z', [...MIGRATIONS, next])).toBe(2);
      expect(applyMigrations(db, '2026-03-03T10:00:00.000Z', [...MIGRATIONS, next])).toBe(2);
      expect(db.prepare('SELECT version, applied_at FROM schema_version ORDER BY version').all()).toEqual([
        { version: 1, applied_at: '2026-03-01T10:00:00.000Z' },
        { version: 2, applied_at: '2026-03-02T10:00:00.000Z' },
      ]);
    } finally {
      db.close();
    }
  });

  it('roll back entirely when one step fails', async () => {
    const db = await scratchDatabase();
    try {
      const broken: Migration = { version: 2, sql: 'CREATE TABLE ok_table (x TEXT); NOT SQL' };
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
        "INSERT INTO sessions VALUES (?, 't', 'w', 'o', '/', ?, '2026-03-01T10:00:00.000Z', '2026-03-01T10:00:00.000Z')",
      );
      for (const status of SESSION_STATUSES) insert.run(`s-${status}`, status);
      expect(() => insert.run('s-bad', 'running')).toThrow(/CHECK constraint/);
    } finally {
      db.close();
    }
  });
});
