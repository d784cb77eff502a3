import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshRepo, manualClock, newRecord, openRepo, tempDir } from '../test/repo-fixture';
import { LATEST_SCHEMA_VERSION } from './migrations';
import { BUSY_TIMEOUT_MS, openDatabase } from './open-database';
import { DatabaseSync, pragmaValue, type Database } from './sqlite-driver';
import { openSqliteSessionRepo, sessionRepoFile } from './sqlite-session-repo';

function inspect<T>(file: string, read: (db: Database) => T): T {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

describe('openSqliteSessionRepo', () => {
  it('keeps its file under <dataDir>/coordinator, the directory 0700 and the files 0600', async () => {
    const { repo, file, dataDir } = await freshRepo();
    await repo.create(newRecord());
    expect(file).toBe(join(dataDir, 'coordinator', 'sessions.db'));
    expect((await stat(dirname(file))).mode & 0o777).toBe(0o700);
    for (const path of [file, `${file}-wal`, `${file}-shm`]) expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it('turns on WAL mode', async () => {
    const { file } = await freshRepo();
    expect(inspect(file, (db) => pragmaValue(db, 'journal_mode'))).toBe('wal');
  });

  it('sets its connection to wait out a busy lock, enforce foreign keys and sync as WAL allows', async () => {
    const file = sessionRepoFile(await tempDir());
    const db = openDatabase(file, () => new Date())._unsafeUnwrap();
    try {
      expect(pragmaValue(db, 'busy_timeout')).toBe(BUSY_TIMEOUT_MS);
      expect(pragmaValue(db, 'foreign_keys')).toBe(1);
      expect(pragmaValue(db, 'synchronous')).toBe(1);
    } finally {
      db.close();
    }
  });

  it('migrates a new file once and records each version with when it was applied', async () => {
    const clock = manualClock();
    const { repo, file } = await freshRepo(clock.now);
    await repo.close();
    clock.advance(60_000);
    await openRepo(file, clock.now).close();
    const versions = inspect(file, (db) => db.prepare('SELECT version, applied_at FROM schema_version').all());
    expect(versions).toEqual(
      Array.from({ length: LATEST_SCHEMA_VERSION }, (_, index) => ({
        version: index + 1,
        applied_at: '2026-03-01T10:00:00.000Z',
      })),
    );
  });

  it('refuses a database made by a newer pi and leaves it byte-identical', async () => {
    const file = sessionRepoFile(await tempDir());
    await mkdir(dirname(file), { recursive: true });
    const newer = new DatabaseSync(file);
    newer.exec('CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TEXT); CREATE TABLE future (x);');
    newer.prepare('INSERT INTO schema_version VALUES (?, ?)').run(LATEST_SCHEMA_VERSION + 1, '2030-01-01T00:00:00Z');
    newer.close();
    const before = await readFile(file);

    const opened = openSqliteSessionRepo({ file });

    expect(opened._unsafeUnwrapErr()).toEqual({
      code: 'storage',
      message: expect.stringContaining(`${file} was made by a newer pi (schema version ${LATEST_SCHEMA_VERSION + 1}`),
    });
    expect((await readFile(file)).equals(before)).toBe(true);
    expect(inspect(file, (db) => pragmaValue(db, 'journal_mode'))).toBe('delete');
  });

  it('refuses a file that is not a SQLite database, naming it, and leaves it alone', async () => {
    const file = join(await tempDir(), 'notes.db');
    const garbage = 'these are my notes, not a database\n'.repeat(200);
    await writeFile(file, garbage);

    const opened = openSqliteSessionRepo({ file });

    expect(opened._unsafeUnwrapErr()).toEqual({ code: 'storage', message: `${file} is not a SQLite database` });
    expect(await readFile(file, 'utf8')).toBe(garbage);
  });

  it('reports a file it cannot create as a storage error value', async () => {
    const blocker = join(await tempDir(), 'blocker');
    await writeFile(blocker, '');
    const opened = openSqliteSessionRepo({ file: join(blocker, 'sessions.db') });
    expect(opened._unsafeUnwrapErr()).toMatchObject({ code: 'storage', message: expect.stringContaining(blocker) });
  });
});
