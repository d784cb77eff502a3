import { afterEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { eventually } from '@pi/test-support';
import { createTestDatabase, testPostgres } from '@pi/test-support/postgres';
import {
  PROCESS_TEST_TIMEOUT_MS,
  createCoordinatorSandbox,
  readText,
  type CoordinatorSandbox,
} from './coordinator-sandbox';

const postgres = testPostgres();

const boxes: CoordinatorSandbox[] = [];
afterEach(async () => {
  for (const box of boxes.splice(0)) await box.cleanUp();
}, PROCESS_TEST_TIMEOUT_MS);

async function newSandbox(): Promise<CoordinatorSandbox> {
  const box = await createCoordinatorSandbox();
  boxes.push(box);
  return box;
}

describe('pi-coordinator --database', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('says in one line that a URL is not PostgreSQL’s, or that its server cannot be reached, and exits 1', async () => {
    const box = await newSandbox();
    const notPostgres = await box.coordinator(['run', '--database', 'mysql://pi@localhost/pi']);
    expect(notPostgres).toEqual({
      code: 1,
      stdout: '',
      stderr: 'pi-coordinator: The database URL must look like postgres://user@host:port/database\n',
    });
    box.env['PI_DATABASE_URL'] = 'postgres://pi:secret@127.0.0.1:1/records';
    const down = await box.coordinator(['run']);
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/^pi-coordinator: Cannot reach PostgreSQL at 127\.0\.0\.1:1\/records: .+\n$/);
    expect(down.stderr.trimEnd()).not.toContain('\n');
    expect(down.stderr).not.toContain('secret');
  });
});

if (!postgres.available)
  describe.skip(`pi-coordinator replicas on PostgreSQL: skipped, ${postgres.reason}`, () =>
    it('runs', () => undefined));

describe.runIf(postgres.available)(
  'two pi-coordinator processes on one PostgreSQL',
  { timeout: PROCESS_TEST_TIMEOUT_MS },
  () => {
    it('each lists what the other created, follows it live, and the survivor of a kill -9 lost nothing', async () => {
      if (!postgres.available) return;
      const url = await createTestDatabase(postgres.url, 'coordinator');
      const first = await newSandbox();
      const second = await newSandbox();
      // One data directory (the sessions' files, the shared credential key), a runtime directory each.
      second.env['XDG_DATA_HOME'] = first.env['XDG_DATA_HOME'];
      for (const box of [first, second]) box.env['PI_DATABASE_URL'] = url;
      for (const box of [first, second]) expect((await box.coordinator(['start'])).code).toBe(0);

      const { directory: throughFirst } = await first.directory();
      const { directory: throughSecond } = await second.directory();
      const made = await first.createSession(throughFirst, 'made through the first');
      await eventually(() => throughSecond.state.value.sessions.some((s) => s.sessionId === made.sessionId), 8000);
      await throughSecond.rename(made.sessionId, 'renamed through the second', BACKGROUND_CONTEXT);
      await eventually(
        () =>
          throughFirst.state.value.sessions.find((s) => s.sessionId === made.sessionId)?.title ===
          'renamed through the second',
        8000,
      );

      process.kill(Number(readText(first.files.pidFile)), 'SIGKILL');
      const listed = await second.coordinator(['status']);
      expect(listed.code).toBe(0);
      const { directory: afterKill } = await second.directory();
      await eventually(
        () => afterKill.state.value.sessions.some((s) => s.title === 'renamed through the second'),
        8000,
      );
    });
  },
);
