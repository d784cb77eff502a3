import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { eventually } from '@pi/test-support';
import { createTestDatabase, type TestPostgres } from '@pi/test-support/postgres';
import { connectionFilePath, workspaceIdOf } from '@pi/connection-files';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { REMOTE_TIMEOUT_MS, remoteFixture } from './remote-fixture';
import { sessionConnection, statusIs, writeCertificates } from './remote-sessions';

const postgres = (inject('piPostgres') as TestPostgres | undefined) ?? {
  available: false as const,
  reason: "the project's global setup did not run",
};

const TIMEOUT_MS = REMOTE_TIMEOUT_MS;
const { coordinator, elsewhere, runSession, present, spawn, track } = remoteFixture();

describe('a session on another host, over TLS', { timeout: TIMEOUT_MS }, () => {
  it('registers upstream over wss: from its own data directory, is listed, and a TUI attached by URL gets its prompt answered', async () => {
    const host = await elsewhere();
    const certificates = await writeCertificates(join(host.root, 'tls'));
    const coordinatorHost = await coordinator(certificates);
    const credential = await coordinatorHost.enroll(host.cwd, join(host.root, 'credential.json'));
    const tls = ['--tls-cert', certificates.cert, '--tls-key', certificates.key];
    const session = await runSession(host, [
      ...['--coordinator', coordinatorHost.url, '--credential-file', credential, '--tls-ca', certificates.ca],
      ...['--listen', '127.0.0.1:0', ...tls],
    ]);
    expect(session.connectionFile.startsWith(host.dataDir)).toBe(true);

    const directory = await coordinatorHost.directory();
    await statusIs(directory, session.sessionId, 'idle');
    expect(directory.state.value.sessions.find((s) => s.sessionId === session.sessionId)).toMatchObject({
      title: 'on another host',
      cwd: host.cwd,
    });

    const { token, url } = await sessionConnection(session.connectionFile);
    expect(url).toMatch(/^wss:\/\/127\.0\.0\.1:\d+\/$/);
    const tui = coordinatorHost.e2e.spawnTui(['--url', url ?? '', '--tls-ca', certificates.ca], undefined, {
      PI_TOKEN: token,
    });
    track(tui);
    await tui.waitForScreen((screen) => screen.text.includes('● connected'), 'the TUI attached by URL');
    tui.write('hello over TLS');
    tui.press('enter');
    await tui.waitForScreen((screen) => screen.text.includes('You said: hello over TLS'), 'the answer');
    await statusIs(directory, session.sessionId, 'active');
  });

  it('the coordinator stops it: asked over its connection, the process on the other host ends and its record is closed', async () => {
    const host = await elsewhere();
    const certificates = await writeCertificates(join(host.root, 'tls'));
    const coordinatorHost = await coordinator(certificates);
    const credential = await coordinatorHost.enroll(host.cwd, join(host.root, 'credential.json'));
    const session = await runSession(host, [
      ...['--coordinator', coordinatorHost.url, '--credential-file', credential, '--tls-ca', certificates.ca],
    ]);
    const directory = await coordinatorHost.directory();
    await statusIs(directory, session.sessionId, 'idle');

    // What `pi sessions stop ID` calls.
    expect(await directory.stop(session.sessionId, BACKGROUND_CONTEXT)).toMatchObject({ status: 'closed' });
    await session.exited;
    expect(session.output()).toMatch(
      new RegExp(`^pi-session ${session.sessionId}: stopped on a request of its coordinator; reopen with`, 'm'),
    );
    // Its record stays, and a removal (which stops first) now goes through.
    await directory.remove(session.sessionId, BACKGROUND_CONTEXT);
  });

  it('pi-tui --url says in one line why it cannot attach: a bad URL, a certificate it does not trust, a wrong token', async () => {
    const host = await elsewhere();
    const certificates = await writeCertificates(join(host.root, 'tls'));
    const session = await runSession(host, [
      ...['--listen', '127.0.0.1:0', '--tls-cert', certificates.cert, '--tls-key', certificates.key],
    ]);
    const { token, url } = await sessionConnection(session.connectionFile);
    const attach = async (args: readonly string[], attachToken: string) => {
      const tui = spawn(host, args, attachToken);
      await tui.exited;
      const lines = tui.output().split(/\r?\n/);
      return lines.filter((line) => line.includes('pi-tui: ')).map((line) => line.slice(line.indexOf('pi-tui: ')));
    };

    expect(await attach(['--url', 'https://127.0.0.1:1/'], token)).toEqual([
      'pi-tui: --url takes a ws:// or wss:// URL, not https: "https://127.0.0.1:1/"',
    ]);
    expect(await attach(['--url', url ?? '', '--tls-ca', certificates.otherCa], token)).toEqual([
      expect.stringMatching(
        /^pi-tui: Cannot attach to wss:\/\/127\.0\.0\.1:\d+\/: The connection closed: the server's TLS certificate is not trusted \(.+\); give the CA that signed it with --tls-ca FILE$/,
      ),
    ]);
    expect(await attach(['--url', url ?? '', '--tls-ca', certificates.ca], 'not-the-token')).toEqual([
      `pi-tui: Cannot attach to ${url}: the session refused the token in $PI_TOKEN (its connection file holds the one it takes)`,
    ]);
  });
  it('a session that does not trust the coordinator says why on its log, and a refused credential is said once, not twice', async () => {
    const host = await elsewhere();
    const certificates = await writeCertificates(join(host.root, 'tls'));
    const coordinatorHost = await coordinator(certificates);
    const credential = await coordinatorHost.enroll(host.cwd, join(host.root, 'credential.json'));
    const untrusting = await runSession(host, [
      ...['--coordinator', coordinatorHost.url, '--credential-file', credential, '--tls-ca', certificates.otherCa],
    ]);
    await eventually(() => untrusting.output().includes('cannot reach the coordinator: '), 8000);
    expect(untrusting.output()).toMatch(
      /^pi-session \S+: cannot reach the coordinator: The connection closed: the server's TLS certificate is not trusted \(.+\); trying again$/m,
    );
    await untrusting.stop('SIGTERM');

    const enrolled = JSON.parse(await readFile(credential, 'utf8')) as { credential: string };
    const forged = join(host.root, 'forged.json');
    await writeFile(forged, JSON.stringify({ ...enrolled, credential: `${enrolled.credential.split('.')[0]}.AAAA` }));
    const refused = await runSession(host, [
      ...['--coordinator', coordinatorHost.url, '--credential-file', forged, '--tls-ca', certificates.ca],
    ]);
    await eventually(() => refused.output().includes("refused this session's credential"), 8000);
    expect(refused.output()).not.toContain('cannot reach the coordinator');
  });
});

if (!postgres.available)
  describe.skip(`a remote session failing over between replicas: skipped, ${postgres.reason}`, () =>
    it('runs', () => undefined));

describe.runIf(postgres.available)('a remote session failing over between replicas', { timeout: TIMEOUT_MS }, () => {
  it('reconnects to the other replica when its replica is killed with -9, which then writes its status alone', async () => {
    if (!postgres.available) return;
    const env = { PI_DATABASE_URL: await createTestDatabase(postgres.url, 'remote') };
    const host = await elsewhere();
    const certificates = await writeCertificates(join(host.root, 'tls'));
    const first = await coordinator(certificates, { env });
    // Another host's replica: its own data and runtime directories, the same credential key.
    const second = await coordinator(certificates, { env, keyFrom: first });
    const credential = await first.enroll(host.cwd, join(host.root, 'credential.json'));
    const session = await runSession(host, [
      ...['--coordinator', first.url, '--coordinator', second.url],
      ...['--credential-file', credential, '--tls-ca', certificates.ca],
    ]);
    const throughSecond = await second.directory();
    await statusIs(throughSecond, session.sessionId, 'idle');
    // Its first connection goes to the first URL: the first replica writes what a presentation changes.
    const before = await present(session.connectionFile);
    await statusIs(throughSecond, session.sessionId, 'active');

    process.kill(await first.pid(), 'SIGKILL');
    before.close();
    // Only the second replica is left to hear that the presentation left, and to write it.
    await statusIs(throughSecond, session.sessionId, 'idle');
    await present(session.connectionFile);
    await statusIs(throughSecond, session.sessionId, 'active');

    await session.stop('SIGTERM');
    await statusIs(throughSecond, session.sessionId, 'closed');
  });

  it('a session a replica started reconnects to the replica it was handed (--replica) when its own is killed with -9', async () => {
    if (!postgres.available) return;
    const env = { PI_DATABASE_URL: await createTestDatabase(postgres.url, 'remote') };
    const folder = await elsewhere();
    const certificates = await writeCertificates(join(folder.root, 'tls'));
    const second = await coordinator(certificates, { env });
    const first = await coordinator(certificates, {
      env,
      keyFrom: second,
      args: ['--replica', second.url, '--tls-ca', certificates.ca],
    });
    const project = first.e2e.sandbox.cwd;
    const throughFirst = await first.directory();
    const created = await throughFirst.create(
      { title: 'started by the first', workspaceId: workspaceIdOf(project), cwd: project },
      BACKGROUND_CONTEXT,
    );
    const throughSecond = await second.directory();
    await statusIs(throughSecond, created.sessionId, 'idle');
    const connectionFile = connectionFilePath(first.dataDir, created.sessionId);
    const before = await present(connectionFile);
    await statusIs(throughSecond, created.sessionId, 'active');

    process.kill(await first.pid(), 'SIGKILL');
    before.close();
    await statusIs(throughSecond, created.sessionId, 'idle');
    await present(connectionFile);
    await statusIs(throughSecond, created.sessionId, 'active');
  });

  it('a session a replica started reconnects, when its replica is killed with -9, to a replica it learned from the shared records (no --replica)', async () => {
    if (!postgres.available) return;
    const env = { PI_DATABASE_URL: await createTestDatabase(postgres.url, 'remote') };
    const folder = await elsewhere();
    const certificates = await writeCertificates(join(folder.root, 'tls'));
    const second = await coordinator(certificates, { env });
    // Only the CA: the first learns where the second serves from the records they share.
    const first = await coordinator(certificates, { env, keyFrom: second, args: ['--tls-ca', certificates.ca] });
    const project = first.e2e.sandbox.cwd;
    const throughFirst = await first.directory();
    const created = await throughFirst.create(
      { title: 'started by the first', workspaceId: workspaceIdOf(project), cwd: project },
      BACKGROUND_CONTEXT,
    );
    const throughSecond = await second.directory();
    await statusIs(throughSecond, created.sessionId, 'idle');
    const connectionFile = connectionFilePath(first.dataDir, created.sessionId);

    process.kill(await first.pid(), 'SIGKILL');
    await present(connectionFile);
    await statusIs(throughSecond, created.sessionId, 'active');
  });

  it('a session enrolled with one replica’s URL learns the others from it, and reconnects to one when its replica is killed with -9', async () => {
    if (!postgres.available) return;
    const env = { PI_DATABASE_URL: await createTestDatabase(postgres.url, 'remote') };
    const host = await elsewhere();
    const certificates = await writeCertificates(join(host.root, 'tls'));
    const second = await coordinator(certificates, { env });
    const first = await coordinator(certificates, { env, keyFrom: second });
    const credential = await first.enroll(host.cwd, join(host.root, 'credential.json'));
    const session = await runSession(host, [
      ...['--coordinator', first.url, '--credential-file', credential, '--tls-ca', certificates.ca],
    ]);
    // The first replica read where the second serves from the records they share, and told the session.
    await eventually(
      () => session.output().includes(`will reconnect to the coordinator's replicas at ${second.url} too`),
      8000,
    );
    const throughSecond = await second.directory();
    await statusIs(throughSecond, session.sessionId, 'idle');

    process.kill(await first.pid(), 'SIGKILL');
    await present(session.connectionFile);
    await statusIs(throughSecond, session.sessionId, 'active');
  });

  it('a stop asked of another replica reaches the session through the replica it is connected to', async () => {
    if (!postgres.available) return;
    const env = { PI_DATABASE_URL: await createTestDatabase(postgres.url, 'remote') };
    const host = await elsewhere();
    const certificates = await writeCertificates(join(host.root, 'tls'));
    const first = await coordinator(certificates, { env });
    const second = await coordinator(certificates, { env, keyFrom: first });
    const credential = await first.enroll(host.cwd, join(host.root, 'credential.json'));
    const session = await runSession(host, [
      ...['--coordinator', first.url, '--credential-file', credential, '--tls-ca', certificates.ca],
    ]);
    const throughSecond = await second.directory();
    await statusIs(throughSecond, session.sessionId, 'idle');

    // The second replica does not run it: it asks through the shared records, and the first stops it.
    expect(await throughSecond.stop(session.sessionId, BACKGROUND_CONTEXT)).toMatchObject({ status: 'closed' });
    await session.exited;
    expect(session.output()).toContain('stopped on a request of its coordinator');
  });
});
