import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventually } from '@pi/test-support';
import { createTestDatabase, testPostgres } from '@pi/test-support/postgres';
import { connectionFilePath, workspaceIdOf } from '@pi/connection-files';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { REMOTE_TIMEOUT_MS, remoteFixture } from './remote-fixture';
import {
  answered,
  listenArgs,
  sessionConnection,
  statusIs,
  whenAttached,
  type CertificateFiles,
  type TlsCoordinator,
} from './remote-sessions';

const postgres = testPostgres();

const TIMEOUT_MS = REMOTE_TIMEOUT_MS;
const { coordinator, sharedCoordinator, hostWithCertificates, runEnrolled, runSession, present, spawnOn, tuiSays } =
  remoteFixture();

describe('a session on another host, over TLS', { timeout: TIMEOUT_MS }, () => {
  it('registers upstream over wss: from its own data directory, is listed, and a TUI attached by URL gets its prompt answered', async () => {
    const { host, certificates } = await hostWithCertificates();
    const coordinatorHost = await sharedCoordinator();
    const session = await runEnrolled(host, certificates, coordinatorHost, listenArgs(certificates));
    expect(session.connectionFile.startsWith(host.dataDir)).toBe(true);

    const directory = await coordinatorHost.directory();
    await statusIs(directory, session.sessionId, 'idle');
    expect(directory.state.value.sessions.find((s) => s.sessionId === session.sessionId)).toMatchObject({
      title: 'on another host',
      cwd: host.cwd,
    });

    const { token, url } = await sessionConnection(session.connectionFile);
    expect(url).toMatch(/^wss:\/\/127\.0\.0\.1:\d+\/$/);
    const tui = spawnOn(coordinatorHost, ['--url', url ?? '', '--tls-ca', certificates.ca], token);
    await whenAttached(tui, 'the TUI attached by URL');
    await answered(tui, 'hello over TLS');
    await statusIs(directory, session.sessionId, 'active');
  });

  it('the coordinator stops it: asked over its connection, the process on the other host ends and its record is closed', async () => {
    const { host, certificates } = await hostWithCertificates();
    const coordinatorHost = await sharedCoordinator();
    const session = await runEnrolled(host, certificates, coordinatorHost);
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
    const { host, certificates } = await hostWithCertificates();
    const session = await runSession(host, listenArgs(certificates));
    const { token, url } = await sessionConnection(session.connectionFile);
    const attach = (args: readonly string[], attachToken: string) => tuiSays(host, args, attachToken);

    // Three TUIs at once: none changes what the others see.
    const [badUrl, untrusted, wrongToken] = await Promise.all([
      attach(['--url', 'https://127.0.0.1:1/'], token),
      attach(['--url', url ?? '', '--tls-ca', certificates.otherCa], token),
      attach(['--url', url ?? '', '--tls-ca', certificates.ca], 'not-the-token'),
    ]);
    expect(badUrl).toEqual(['pi-tui: --url takes a ws:// or wss:// URL, not https: "https://127.0.0.1:1/"']);
    expect(untrusted).toEqual([
      expect.stringMatching(
        /^pi-tui: Cannot attach to wss:\/\/127\.0\.0\.1:\d+\/: The connection closed: the server's TLS certificate is not trusted \(.+\); give the CA that signed it with --tls-ca FILE$/,
      ),
    ]);
    expect(wrongToken).toEqual([
      `pi-tui: Cannot attach to ${url}: the session refused the token in $PI_TOKEN (its connection file holds the one it takes)`,
    ]);
  });
  it('a session that does not trust the coordinator says why on its log, and a refused credential is said once, not twice', async () => {
    const { host, certificates } = await hostWithCertificates();
    const coordinatorHost = await sharedCoordinator();
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
  /** Two replicas (the first with `firstArgs`), and a session the first started on its own host, idle in the records. */
  const sessionOfFirstReplica = async (
    firstArgs: (second: TlsCoordinator, certificates: CertificateFiles) => string[],
  ) => {
    if (!postgres.available) throw new Error(postgres.reason);
    const env = { PI_DATABASE_URL: await createTestDatabase(postgres.url, 'remote') };
    const { certificates } = await hostWithCertificates();
    const second = await coordinator(certificates, { env });
    const first = await coordinator(certificates, { env, keyFrom: second, args: firstArgs(second, certificates) });
    const project = first.e2e.sandbox.cwd;
    const created = await (
      await first.directory()
    ).create({ title: 'started by the first', workspaceId: workspaceIdOf(project), cwd: project }, BACKGROUND_CONTEXT);
    const throughSecond = await second.directory();
    await statusIs(throughSecond, created.sessionId, 'idle');
    return {
      first,
      throughSecond,
      sessionId: created.sessionId,
      connectionFile: connectionFilePath(first.dataDir, created.sessionId),
    };
  };

  it('reconnects to the other replica when its replica is killed with -9, which then writes its status alone', async () => {
    if (!postgres.available) return;
    const env = { PI_DATABASE_URL: await createTestDatabase(postgres.url, 'remote') };
    const { host, certificates } = await hostWithCertificates();
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
    const { first, throughSecond, sessionId, connectionFile } = await sessionOfFirstReplica((second, certificates) => [
      ...['--replica', second.url, '--tls-ca', certificates.ca],
    ]);
    const before = await present(connectionFile);
    await statusIs(throughSecond, sessionId, 'active');

    process.kill(await first.pid(), 'SIGKILL');
    before.close();
    await statusIs(throughSecond, sessionId, 'idle');
    await present(connectionFile);
    await statusIs(throughSecond, sessionId, 'active');
  });

  it('a session a replica started reconnects, when its replica is killed with -9, to a replica it learned from the shared records (no --replica)', async () => {
    if (!postgres.available) return;
    // Only the CA: the first learns where the second serves from the records they share.
    const { first, throughSecond, sessionId, connectionFile } = await sessionOfFirstReplica((_, certificates) => [
      ...['--tls-ca', certificates.ca],
    ]);

    process.kill(await first.pid(), 'SIGKILL');
    await present(connectionFile);
    await statusIs(throughSecond, sessionId, 'active');
  });

  it('a session enrolled with one replica’s URL learns the others from it, and reconnects to one when its replica is killed with -9', async () => {
    if (!postgres.available) return;
    const env = { PI_DATABASE_URL: await createTestDatabase(postgres.url, 'remote') };
    const { host, certificates } = await hostWithCertificates();
    const second = await coordinator(certificates, { env });
    const first = await coordinator(certificates, { env, keyFrom: second });
    const session = await runEnrolled(host, certificates, first);
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
    const { host, certificates } = await hostWithCertificates();
    const first = await coordinator(certificates, { env });
    const second = await coordinator(certificates, { env, keyFrom: first });
    const session = await runEnrolled(host, certificates, first);
    const throughSecond = await second.directory();
    await statusIs(throughSecond, session.sessionId, 'idle');

    // The second replica does not run it: it asks through the shared records, and the first stops it.
    expect(await throughSecond.stop(session.sessionId, BACKGROUND_CONTEXT)).toMatchObject({ status: 'closed' });
    await session.exited;
    expect(session.output()).toContain('stopped on a request of its coordinator');
  });
});
