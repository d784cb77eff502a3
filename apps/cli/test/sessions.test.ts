import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceIdOf } from '@pi/connection-files';
import { eventually } from '@pi/test-support';
import { exitCodeOf } from '../src/exit-codes';
import {
  PROCESS_TEST_TIMEOUT_MS,
  createCoordinatorSandbox,
  isAlive,
  type CoordinatorSandbox,
} from './coordinator-sandbox';

const NO_COORDINATOR =
  'no coordinator is running; start it with `pi-coordinator start` (in a pi checkout: `npx pi-coordinator start`)';

describe('pi sessions and pi status with no coordinator', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  let sandbox: CoordinatorSandbox;
  beforeAll(async () => {
    sandbox = await createCoordinatorSandbox();
  });
  afterAll(async () => {
    await sandbox?.killAll();
    await sandbox?.remove();
  });

  it('pi sessions exits 3 (unavailable) with one line saying how to start one', async () => {
    expect(await sandbox.pi(['sessions', '--cwd', sandbox.project])).toEqual({
      code: 3,
      stdout: '',
      stderr: `pi: unavailable: ${NO_COORDINATOR}\n`,
    });
    const json = await sandbox.pi(['sessions', 'create', '--json', '--cwd', sandbox.project]);
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stderr)).toEqual({ error: { code: 'unavailable', message: NO_COORDINATOR } });
  });

  it('pi status still exits 3 for no session there, and says the coordinator is not running', async () => {
    const human = await sandbox.pi(['status', '--cwd', sandbox.project]);
    expect(human).toEqual({
      code: 3,
      stdout: 'coordinator  not running (pi-coordinator start)\n',
      stderr: `pi: unavailable: No session is running in ${sandbox.project}\n`,
    });
    const json = await sandbox.pi(['status', '--json', '--cwd', sandbox.project]);
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stdout)).toEqual({
      session: null,
      connection: null,
      heartbeat: null,
      services: [],
      coordinator: { running: false },
    });
  });
});

describe('pi sessions against a real coordinator', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  let sandbox: CoordinatorSandbox;
  let coordinatorPid: number;
  beforeAll(async () => {
    sandbox = await createCoordinatorSandbox();
    const started = await sandbox.coordinator(['start']);
    expect(started, started.stderr).toMatchObject({ code: 0 });
    coordinatorPid = Number(/\(pid (\d+)\)/.exec(started.stdout)?.[1]);
  }, PROCESS_TEST_TIMEOUT_MS);
  afterAll(async () => {
    await sandbox?.killAll();
    await sandbox?.remove();
  }, PROCESS_TEST_TIMEOUT_MS);

  const inProject = (...args: string[]) => sandbox.pi([...args, '--cwd', sandbox.project]);

  it('lists no sessions for a new directory, as text and as JSON', async () => {
    expect(await inProject('sessions')).toEqual({
      code: 0,
      stdout: `No sessions in ${sandbox.project} (pi sessions create starts one)\n`,
      stderr: '',
    });
    expect(await inProject('sessions', 'list', '--json')).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
  });

  it('creates sessions that run, lists them newest first, and removes one (stopping its process)', async () => {
    const first = await inProject('sessions', 'create');
    expect(first, first.stderr).toMatchObject({ code: 0, stderr: '' });
    const firstId = first.stdout.trim();
    expect(firstId).toMatch(/^s-[\w-]+$/);

    const second = await inProject('sessions', 'create', '--title', 'fix the build', '--json');
    expect(second, second.stderr).toMatchObject({ code: 0, stderr: '' });
    const record = JSON.parse(second.stdout);
    expect(record).toEqual({
      sessionId: expect.stringMatching(/^s-/),
      title: 'fix the build',
      workspaceId: workspaceIdOf(sandbox.project),
      ownerId: expect.any(String),
      cwd: sandbox.project,
      status: expect.stringMatching(/^(idle|active)$/),
      updatedAt: expect.any(String),
    });
    const secondId: string = record.sessionId;

    const json = await inProject('sessions', 'list', '--json');
    expect(json.code).toBe(0);
    const listed = JSON.parse(json.stdout);
    expect(listed.map((session: { sessionId: string }) => session.sessionId)).toEqual([secondId, firstId]);
    expect(listed[1]).toMatchObject({ title: 'new session' }); // until its first prompt names it

    const table = (await inProject('sessions')).stdout.trimEnd().split('\n');
    expect(table[0]).toMatch(/^ID +TITLE +STATUS +UPDATED$/);
    expect(table[1]).toMatch(
      new RegExp(`^${secondId} +fix the build +(idle|active) +\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d$`),
    );
    expect(table[2]).toMatch(new RegExp(`^${firstId} +new session `));
    expect(table).toHaveLength(3);

    // From another directory, without --cwd: that directory's workspace, which has none; --all has both.
    expect((await sandbox.pi(['sessions'])).stdout).toBe(
      `No sessions in ${sandbox.elsewhere} (pi sessions create starts one)\n`,
    );
    const all = (await sandbox.pi(['sessions', '--all'])).stdout.trimEnd().split('\n');
    expect(all[0]).toMatch(/^ID +TITLE +STATUS +UPDATED +DIRECTORY$/);
    expect(all.slice(1).every((line) => line.endsWith(`  ${sandbox.project}`))).toBe(true);
    expect(JSON.parse((await sandbox.pi(['sessions', '--all', '--json'])).stdout)).toHaveLength(2);

    // Two sessions run there: pi status cannot pick one (exit 3), and still says what the coordinator keeps.
    const ambiguous = await inProject('status');
    expect(ambiguous).toMatchObject({
      code: 3,
      stdout: `coordinator  running (pid ${coordinatorPid}) on ${join(sandbox.runtimeDir, 'coordinator.sock')}; 2 sessions, 2 in this workspace\n`,
      stderr: expect.stringMatching(/^pi: unavailable: 2 sessions are running in .*; choose one with --session\n$/),
    });

    const { pid } = JSON.parse(await readFile(join(sandbox.dataDir, 'sessions', `${firstId}.connection.json`), 'utf8'));
    expect(isAlive(pid)).toBe(true);
    expect(await inProject('sessions', 'rm', firstId)).toEqual({ code: 0, stdout: `removed ${firstId}\n`, stderr: '' });
    await eventually(() => !isAlive(pid));
    const left = JSON.parse((await inProject('sessions', '--json')).stdout);
    expect(left.map((session: { sessionId: string }) => session.sessionId)).toEqual([secondId]);

    // pi status: a session by id, with the coordinator's line; JSON with its field.
    const status = await sandbox.pi(['status', '--session', secondId, '--cwd', sandbox.project]);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(new RegExp(`^session +${secondId}$`, 'm'));
    expect(status.stdout).toContain(
      `coordinator      running (pid ${coordinatorPid}) on ${join(sandbox.runtimeDir, 'coordinator.sock')}; 1 session, 1 in this workspace\n`,
    );
    const statusJson = JSON.parse((await inProject('status', '--json')).stdout);
    expect(statusJson).toMatchObject({
      session: { sessionId: secondId, cwd: sandbox.project },
      connection: 'connected',
      coordinator: {
        running: true,
        pid: coordinatorPid,
        socketPath: join(sandbox.runtimeDir, 'coordinator.sock'),
        sessions: 1,
        workspaceSessions: 1,
      },
    });

    // pi sessions stop: its process ends, its record stays, closed (the removal below no longer has one to stop).
    const stopping = JSON.parse(
      await readFile(join(sandbox.dataDir, 'sessions', `${secondId}.connection.json`), 'utf8'),
    );
    expect(await inProject('sessions', 'stop', secondId)).toEqual({
      code: 0,
      stdout: `stopped ${secondId}\n`,
      stderr: '',
    });
    await eventually(() => !isAlive(stopping.pid));
    expect(JSON.parse((await inProject('sessions', '--json')).stdout)).toMatchObject([
      { sessionId: secondId, status: 'closed' },
    ]);

    expect(await inProject('sessions', 'rm', secondId, '--json')).toEqual({
      code: 0,
      stdout: `${JSON.stringify({ removed: secondId })}\n`,
      stderr: '',
    });
  });

  it("an unknown id is the service's refusal, with its code's exit code", async () => {
    const human = await inProject('sessions', 'rm', 's-unknown-1');
    const code = /^pi: (\w+): .*s-unknown-1/.exec(human.stderr)?.[1] ?? '';
    expect(code).not.toBe('');
    expect(human).toMatchObject({ code: exitCodeOf(code), stdout: '' });
    expect(human.code).not.toBe(0);
    const json = await inProject('sessions', 'rm', 's-unknown-1', '--json');
    expect(JSON.parse(json.stderr)).toMatchObject({ error: { code } });
    expect(json.code).toBe(human.code);
  });

  it('bad input is one line: usage errors exit 2, a title the contract refuses is invalid_argument (6)', async () => {
    const title = await inProject('sessions', 'create', '--title', 'a\u001b[2Jb');
    expect(title.code).toBe(6);
    expect(title.stderr).toMatch(/^pi: invalid_argument: .*title.*\n$/);
    const missing = join(sandbox.root, 'missing');
    const cases: Array<[string[], RegExp]> = [
      [
        ['sessions', 'nope'],
        /^pi: Unknown sessions command "nope": use list, create, rm or stop \(see pi sessions --help\)$/,
      ],
      [['sessions', 'rm'], /^pi: Usage: pi sessions rm <id> \[--json\] \(see pi sessions --help\)$/],
      [['sessions', 'stop'], /^pi: Usage: pi sessions stop <id> \[--json\] \(see pi sessions --help\)$/],
      [['sessions', '--nope'], /^pi: Unknown option '--nope'.* \(see pi --help\)$/],
      [['sessions', 'list', '--title', 'x'], /^pi: --title goes with pi sessions create$/],
      [
        ['sessions', 'create', '--cwd', missing],
        new RegExp(`^pi: not a directory: ${missing} \\(see pi sessions --help\\)$`),
      ],
    ];
    for (const [args, line] of cases) {
      const run = await sandbox.pi(args);
      expect(run, args.join(' ')).toMatchObject({ code: 2, stdout: '' });
      expect(run.stderr.endsWith('\n') && run.stderr.split('\n').length === 2, run.stderr).toBe(true);
      expect(run.stderr.trimEnd()).toMatch(line);
    }
    expect(JSON.parse((await inProject('sessions', '--json')).stdout)).toEqual([]);
  });

  it('pi sessions --help and pi help sessions print its usage', async () => {
    for (const args of [
      ['sessions', '--help'],
      ['help', 'sessions'],
      ['sessions', 'rm', '-h'],
    ]) {
      const help = await sandbox.pi(args);
      expect(help).toMatchObject({ code: 0, stderr: '' });
      expect(help.stdout).toMatch(/^Usage: pi sessions \[list \| create \| rm <id> \| stop <id>\]/);
      expect(help.stdout).toContain('--data-dir DIR');
    }
  });
});
