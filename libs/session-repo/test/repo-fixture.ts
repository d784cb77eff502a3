import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import type { NewSessionRecord } from '@pi/plugin-api';
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
