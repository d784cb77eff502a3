import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it, type ExpectStatic, type TestContext } from 'vitest';
import { workspaceIdOf } from '@pi/connection-files';
import {
  PROCESS_TEST_TIMEOUT_MS,
  createSandbox,
  runPiSession,
  type SessionProcess,
  type SessionSandbox,
} from './pi-session-process';

/**
 * These tests run concurrently (each spawns node + tsx), so each one tears down its own processes and sandboxes
 * through its test context rather than a shared afterEach.
 */
function fixtures(context: TestContext) {
  return {
    async sandbox(): Promise<SessionSandbox> {
      const created = await createSandbox();
      context.onTestFinished(() => created.remove());
      return created;
    },
    run(where: SessionSandbox | null, args: readonly string[]): SessionProcess {
      const started = runPiSession(where, args);
      context.onTestFinished(async () => void (await started.stop('SIGKILL')));
      return started;
    },
  };
}

/** The process failed with exactly one line on stderr, which it returns. */
async function oneLineFailure(expect: ExpectStatic, process: SessionProcess): Promise<string> {
  const exit = await process.exited;
  expect(exit.code).not.toBe(0);
  expect(exit.code).not.toBeNull();
  const lines = process
    .stderr()
    .split('\n')
    .filter((line) => line !== '');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^pi-session: /);
  return lines[0] ?? '';
}

describe.concurrent('pi-session on the command line', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('documents every flag in --help and exits 0', async (context) => {
    const help = fixtures(context).run(null, ['--help']);
    context.expect((await help.exited).code).toBe(0);
    for (const flag of [
      '--cwd DIR',
      '--session ID',
      '--manifest FILE',
      '--socket PATH',
      '--port N',
      '--data-dir DIR',
      '--config-dir DIR',
      '-h, --help',
    ]) {
      context.expect(help.stdout()).toContain(flag);
    }
    context.expect(help.stderr()).toBe('');
  });

  it.for([
    ['an unknown flag', ['--bogus'], /--bogus/],
    ['a port that is not a number', ['--port', '80a'], /--port.*"80a"/],
    ['a port out of range', ['--port', '70000'], /--port.*"70000"/],
    ['a positional argument', ['stray'], /stray/],
  ] as const)('rejects %s with one line and exit code 2', async ([, args, message], context) => {
    const failed = fixtures(context).run(null, args);
    context.expect(await oneLineFailure(context.expect, failed)).toMatch(message);
    context.expect((await failed.exited).code).toBe(2);
  });

  it('rejects an unreadable manifest with one line naming the file', async (context) => {
    const { sandbox, run } = fixtures(context);
    const where = await sandbox();
    const manifest = join(where.root, 'no-such-manifest.json');
    context
      .expect(await oneLineFailure(context.expect, run(where, [...where.flags, '--manifest', manifest])))
      .toContain(manifest);
  });

  it('rejects a manifest that is not valid JSON with one line naming the file', async (context) => {
    const { sandbox, run } = fixtures(context);
    const where = await sandbox();
    const manifest = join(where.root, 'broken.json');
    await writeFile(manifest, '{ "plugins": [');
    context
      .expect(await oneLineFailure(context.expect, run(where, [...where.flags, '--manifest', manifest])))
      .toMatch(/broken\.json.*JSON/);
  });

  it('rejects a manifest with an unknown plugin, naming the plugin and the manifest file', async (context) => {
    const { sandbox, run } = fixtures(context);
    const where = await sandbox();
    const manifest = join(where.root, 'manifest.json');
    await writeFile(manifest, JSON.stringify({ plugins: ['@pi/chat', '@acme/nonexistent'] }));
    const line = await oneLineFailure(context.expect, run(where, [...where.flags, '--manifest', manifest]));
    context.expect(line).toContain('"@acme/nonexistent"');
    context.expect(line).toContain(manifest);
  });

  it('rejects a project directory that does not exist', async (context) => {
    const { sandbox, run } = fixtures(context);
    const where = await sandbox();
    const missing = join(where.root, 'gone');
    const flags = [...where.flags.slice(0, -2), '--cwd', missing];
    context.expect(await oneLineFailure(context.expect, run(where, flags))).toContain(missing);
  });

  it('refuses a socket another pi-session is listening on, and leaves that one running', async (context) => {
    const { sandbox, run } = fixtures(context);
    const where = await sandbox();
    const socket = join(where.runtimeDir, 'shared.sock');
    const first = run(where, [...where.flags, '--socket', socket]);
    await first.listening();

    const second = run(where, [...where.flags, '--socket', socket]);

    context.expect(await oneLineFailure(context.expect, second)).toContain(socket);
    context.expect(first.child.exitCode).toBeNull();
    context.expect((await first.stop('SIGTERM')).code).toBe(0);
  });

  it('refuses a --port another process holds, with one line naming it', async (context) => {
    const { sandbox, run } = fixtures(context);
    const where = await sandbox();
    const first = run(where, [...where.flags, '--port', '0']);
    const { url } = await first.listening();
    const port = new URL(url ?? 'ws://127.0.0.1:0/').port;

    context.expect(await oneLineFailure(context.expect, run(where, [...where.flags, '--port', port]))).toContain(port);
  });

  it('refuses a credential file enrolled for another directory, and TLS files it cannot read, in one line', async (context) => {
    const { sandbox, run } = fixtures(context);
    const where = await sandbox();
    const credential = join(where.root, 'credential.json');
    const enrolled = { version: 1, sessionId: 's-remote', workspaceId: workspaceIdOf('/elsewhere'), credential: 'p.m' };
    await writeFile(credential, JSON.stringify(enrolled));
    const remote = ['--coordinator', 'wss://127.0.0.1:1/', '--credential-file', credential];
    context
      .expect(await oneLineFailure(context.expect, run(where, [...where.flags, ...remote])))
      .toBe(
        `pi-session: The credential file was enrolled for another directory than ${where.cwd} (pi-coordinator enroll --cwd)`,
      );
    const missing = join(where.root, 'none.pem');
    const tls = ['--listen', '127.0.0.1:0', '--tls-cert', missing, '--tls-key', missing];
    context
      .expect(await oneLineFailure(context.expect, run(where, [...where.flags, ...tls])))
      .toMatch(new RegExp(`^pi-session: Cannot read --tls-cert ${missing}: `));
  });
});
