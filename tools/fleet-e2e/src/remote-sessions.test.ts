import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { eventually } from '@pi/test-support';
import { createTestDatabase, type TestPostgres } from '@pi/test-support/postgres';
import { connectionFilePath, workspaceIdOf } from '@pi/connection-files';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { createRpcClient, webSocketFactory, type RpcClient } from '@pi/transport-trpc';
import { createSandbox, spawnTui, startSession, type Sandbox, type SessionProcess, type TuiPty } from '@pi/tui-pty-e2e';
import {
  sessionConnection,
  startTlsCoordinator,
  statusIs,
  writeCertificates,
  type CertificateFiles,
  type TlsCoordinator,
} from './remote-sessions';

const postgres = (inject('piPostgres') as TestPostgres | undefined) ?? {
  available: false as const,
  reason: "the project's global setup did not run",
};

/** Real processes (tsx starts, a TLS handshake each): generous, never asserted on. */
const TIMEOUT_MS = 120_000;

const clients: RpcClient[] = [];
const coordinators: TlsCoordinator[] = [];
const sandboxes: Sandbox[] = [];
const sessions: SessionProcess[] = [];
const tuis: TuiPty[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await Promise.all(tuis.splice(0).map((tui) => tui.kill()));
  await Promise.all(sessions.splice(0).map((session) => session.stop('SIGKILL')));
  for (const coordinator of coordinators.splice(0)) await coordinator.e2e.dispose();
  for (const sandbox of sandboxes.splice(0)) await sandbox.remove();
}, TIMEOUT_MS);

async function coordinator(
  certificates: CertificateFiles,
  options: Parameters<typeof startTlsCoordinator>[2] = {},
): Promise<TlsCoordinator> {
  const started = await startTlsCoordinator(certificates, clients, options);
  coordinators.push(started);
  return started;
}

/** Another host's home: a sandbox with its own data directory, where the session runs. */
async function elsewhere(): Promise<Sandbox> {
  const sandbox = await createSandbox();
  sandboxes.push(sandbox);
  return sandbox;
}

async function runSession(sandbox: Sandbox, args: readonly string[]): Promise<SessionProcess> {
  const session = await startSession(sandbox, args);
  sessions.push(session);
  return session;
}

/** A presentation of the session: a client on its socket with its connection file's token. */
async function present(connectionFile: string): Promise<RpcClient> {
  const info = await sessionConnection(connectionFile);
  const client = createRpcClient({
    socketFactory: webSocketFactory({ socketPath: info.socketPath }),
    connectionParams: { token: info.token },
    reconnect: false,
  });
  clients.push(client);
  await client.whenConnected();
  return client;
}

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
    tuis.push(tui);
    await tui.waitForScreen((screen) => screen.text.includes('● connected'), 'the TUI attached by URL');
    tui.write('hello over TLS');
    tui.press('enter');
    await tui.waitForScreen((screen) => screen.text.includes('You said: hello over TLS'), 'the answer');
    await statusIs(directory, session.sessionId, 'active');
  });

  it('a TUI reaches it through the coordinator’s URL with the user token, and one of the coordinator’s own sessions too: the coordinator relays both', async () => {
    const host = await elsewhere();
    const certificates = await writeCertificates(join(host.root, 'tls'));
    // --tls-ca: the CA the sessions' certificates chain to, which the coordinator checks when it relays.
    const coordinatorHost = await coordinator(certificates, { args: ['--tls-ca', certificates.ca] });
    const credential = await coordinatorHost.enroll(host.cwd, join(host.root, 'credential.json'));
    const session = await runSession(host, [
      ...['--coordinator', coordinatorHost.url, '--credential-file', credential, '--tls-ca', certificates.ca],
      ...['--listen', '127.0.0.1:0', '--tls-cert', certificates.cert, '--tls-key', certificates.key],
    ]);
    const directory = await coordinatorHost.directory();
    await statusIs(directory, session.sessionId, 'idle');

    const userToken = await coordinatorHost.userToken();
    const through = (sessionId: string) => [
      ...['--url', `${coordinatorHost.url}sessions/${sessionId}`, '--tls-ca', certificates.ca],
    ];
    const tui = coordinatorHost.e2e.spawnTui(through(session.sessionId), undefined, { PI_TOKEN: userToken });
    tuis.push(tui);
    await tui.waitForScreen(
      (screen) => screen.text.includes('● connected'),
      'the TUI attached through the coordinator',
    );
    tui.write('hello through the coordinator');
    tui.press('enter');
    await tui.waitForScreen((screen) => screen.text.includes('You said: hello through the coordinator'), 'the answer');
    await statusIs(directory, session.sessionId, 'active');

    // A session the coordinator started on its own machine: relayed to its socket, with its connection file's token.
    const project = coordinatorHost.e2e.sandbox.cwd;
    const local = await directory.create(
      { title: 'on the coordinator', workspaceId: workspaceIdOf(project), cwd: project },
      BACKGROUND_CONTEXT,
    );
    const localTui = coordinatorHost.e2e.spawnTui(through(local.sessionId), undefined, { PI_TOKEN: userToken });
    tuis.push(localTui);
    await localTui.waitForScreen((screen) => screen.text.includes('● connected'), 'the TUI attached to the local one');
    localTui.write('hello next door');
    localTui.press('enter');
    await localTui.waitForScreen((screen) => screen.text.includes('You said: hello next door'), 'its answer');
  });

  it('a TUI attached through the coordinator switches to another session of the project through it (/sessions NAME)', async () => {
    const host = await elsewhere();
    const certificates = await writeCertificates(join(host.root, 'tls'));
    const coordinatorHost = await coordinator(certificates, { args: ['--tls-ca', certificates.ca] });
    const credential = await coordinatorHost.enroll(host.cwd, join(host.root, 'credential.json'));
    const session = await runSession(host, [
      ...['--coordinator', coordinatorHost.url, '--credential-file', credential, '--tls-ca', certificates.ca],
      ...['--listen', '127.0.0.1:0', '--tls-cert', certificates.cert, '--tls-key', certificates.key],
    ]);
    const directory = await coordinatorHost.directory();
    await statusIs(directory, session.sessionId, 'idle');
    // Another session of the same project, which the coordinator runs itself.
    const other = await directory.create(
      { title: 'the second one', workspaceId: workspaceIdOf(host.cwd), cwd: host.cwd },
      BACKGROUND_CONTEXT,
    );

    const tui = coordinatorHost.e2e.spawnTui(
      ['--url', `${coordinatorHost.url}sessions/${session.sessionId}`, '--tls-ca', certificates.ca],
      undefined,
      { PI_TOKEN: await coordinatorHost.userToken() },
    );
    tuis.push(tui);
    await tui.waitForScreen(
      (screen) => screen.text.includes('● connected'),
      'the TUI attached through the coordinator',
    );
    tui.write('/sessions the second one\r');
    // The TUI left the first (its presentation count drops) and attached to the second, both through the coordinator.
    await statusIs(directory, other.sessionId, 'active');
    await statusIs(directory, session.sessionId, 'idle');
    await tui.waitForScreen((screen) => screen.text.includes('● connected'), 'the TUI attached to the second one');
    tui.write('hello second one');
    tui.press('enter');
    await tui.waitForScreen((screen) => screen.text.includes('You said: hello second one'), 'the second one’s answer');
  });

  it('through the coordinator’s URL, pi-tui says in one line why it cannot attach: the session token instead of the user’s, no such session', async () => {
    const host = await elsewhere();
    const certificates = await writeCertificates(join(host.root, 'tls'));
    const coordinatorHost = await coordinator(certificates);
    const credential = await coordinatorHost.enroll(host.cwd, join(host.root, 'credential.json'));
    const session = await runSession(host, [
      ...['--coordinator', coordinatorHost.url, '--credential-file', credential, '--tls-ca', certificates.ca],
    ]);
    await statusIs(await coordinatorHost.directory(), session.sessionId, 'idle');
    const attach = async (sessionId: string, token: string) => {
      const url = `${coordinatorHost.url}sessions/${sessionId}`;
      const tui = spawn(host, ['--url', url, '--tls-ca', certificates.ca], token);
      await tui.exited;
      const lines = tui.output().split(/\r?\n/);
      return lines.filter((line) => line.includes('pi-tui: ')).map((line) => line.slice(line.indexOf('pi-tui: ')));
    };
    const url = (sessionId: string) => `${coordinatorHost.url}sessions/${sessionId}`;
    const { token } = await sessionConnection(session.connectionFile);
    expect(await attach(session.sessionId, token)).toEqual([
      `pi-tui: Cannot attach to ${url(session.sessionId)}: the coordinator refused the token in $PI_TOKEN (the user token of its connection file admits)`,
    ]);
    const userToken = await coordinatorHost.userToken();
    expect(await attach('s-nobody', userToken)).toEqual([
      `pi-tui: Cannot attach to ${url('s-nobody')}: The coordinator has no session s-nobody`,
    ]);
    // Registered, but serving no presentations on the network (no --listen where it runs).
    expect(await attach(session.sessionId, userToken)).toEqual([
      `pi-tui: Cannot attach to ${url(session.sessionId)}: Session ${session.sessionId} runs on another host and serves no presentations on the network (pi-session --listen)`,
    ]);
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

function spawn(sandbox: Sandbox, args: readonly string[], token: string): TuiPty {
  const tui = spawnTui({ args, cwd: sandbox.cwd, env: { ...sandbox.env, PI_TOKEN: token } });
  tuis.push(tui);
  return tui;
}

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

  it('a TUI reaches a session through the URL of a replica it is not connected to: the address is in the shared records', async () => {
    if (!postgres.available) return;
    const env = { PI_DATABASE_URL: await createTestDatabase(postgres.url, 'remote') };
    const host = await elsewhere();
    const certificates = await writeCertificates(join(host.root, 'tls'));
    const first = await coordinator(certificates, { env });
    const second = await coordinator(certificates, { env, keyFrom: first, args: ['--tls-ca', certificates.ca] });
    const credential = await first.enroll(host.cwd, join(host.root, 'credential.json'));
    const session = await runSession(host, [
      ...['--coordinator', first.url, '--credential-file', credential, '--tls-ca', certificates.ca],
      ...['--listen', '127.0.0.1:0', '--tls-cert', certificates.cert, '--tls-key', certificates.key],
    ]);
    await statusIs(await second.directory(), session.sessionId, 'idle');

    const tui = second.e2e.spawnTui(
      ['--url', `${second.url}sessions/${session.sessionId}`, '--tls-ca', certificates.ca],
      undefined,
      { PI_TOKEN: await second.userToken() },
    );
    tuis.push(tui);
    await tui.waitForScreen((screen) => screen.text.includes('● connected'), 'the TUI attached through the second');
    tui.write('hello from the other replica');
    tui.press('enter');
    await tui.waitForScreen((screen) => screen.text.includes('You said: hello from the other replica'), 'the answer');
  });
});
