import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { createTestDatabase, type TestPostgres } from '@pi/test-support/postgres';
import { workspaceIdOf } from '@pi/connection-files';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { REMOTE_TIMEOUT_MS, remoteFixture } from './remote-fixture';
import { sessionConnection, statusIs, writeCertificates } from './remote-sessions';

const postgres = (inject('piPostgres') as TestPostgres | undefined) ?? {
  available: false as const,
  reason: "the project's global setup did not run",
};

const TIMEOUT_MS = REMOTE_TIMEOUT_MS;
const { coordinator, elsewhere, runSession, spawn, track } = remoteFixture();

/** The coordinator as a gateway: a TUI reaches a session through the coordinator's URL (`/sessions/<id>`). */
describe('a TUI through the coordinator’s URL', { timeout: TIMEOUT_MS }, () => {
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
    track(tui);
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
    track(localTui);
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
    track(tui);
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
});

if (!postgres.available)
  describe.skip(`a TUI through another replica’s URL: skipped, ${postgres.reason}`, () => it('runs', () => undefined));

describe.runIf(postgres.available)('a TUI through another replica’s URL', { timeout: TIMEOUT_MS }, () => {
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
    track(tui);
    await tui.waitForScreen((screen) => screen.text.includes('● connected'), 'the TUI attached through the second');
    tui.write('hello from the other replica');
    tui.press('enter');
    await tui.waitForScreen((screen) => screen.text.includes('You said: hello from the other replica'), 'the answer');
  });
});
