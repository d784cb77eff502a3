import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { findPostgresBin, startPostgresCluster, type PostgresCluster } from './postgres-cluster';

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid ?? 0;
}

async function started(): Promise<PostgresCluster> {
  const start = await startPostgresCluster();
  if (!start.ok) throw new Error(start.reason);
  onTestFinished(() => start.cluster.stop());
  return start.cluster;
}

const bin = findPostgresBin();

describe.runIf(bin !== undefined)('a throwaway PostgreSQL cluster', () => {
  it(
    'stops and removes a cluster whose run ended without its teardown, and leaves a live run’s alone',
    { timeout: 60_000 },
    async () => {
      const abandoned = await started();
      await writeFile(join(abandoned.directory, 'owner.pid'), `${await deadPid()}\n`);
      // A live run's cluster, as far as the sweep can tell: its owner is this process.
      const live = await mkdtemp(join(tmpdir(), 'pi-postgres-'));
      onTestFinished(() => rm(live, { recursive: true, force: true }));
      await writeFile(join(live, 'owner.pid'), `${process.pid}\n`);
      await started();
      expect(existsSync(abandoned.directory)).toBe(false);
      expect(existsSync(live)).toBe(true);
    },
  );
});

describe.runIf(bin === undefined)('a throwaway PostgreSQL cluster without PostgreSQL', () => {
  it('is not started, and says why', async () => {
    expect(await startPostgresCluster()).toEqual({ ok: false, reason: expect.stringMatching(/no PostgreSQL server/) });
  });
});
