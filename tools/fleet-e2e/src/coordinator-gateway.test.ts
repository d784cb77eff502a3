import { describe, expect, it } from 'vitest';
import { createTestDatabase, testPostgres } from '@pi/test-support/postgres';
import { workspaceIdOf } from '@pi/connection-files';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { REMOTE_TIMEOUT_MS, remoteFixture } from './remote-fixture';
import { answered, listenArgs, sessionConnection, statusIs, whenAttached } from './remote-sessions';

const postgres = testPostgres();

const TIMEOUT_MS = REMOTE_TIMEOUT_MS;
const { coordinator, sharedCoordinator, hostWithCertificates, runEnrolled, spawnOn, tuiSays } = remoteFixture();

/** The coordinator as a gateway: a TUI reaches a session through the coordinator's URL (`/sessions/<id>`). */
describe('a TUI through the coordinator’s URL', { timeout: TIMEOUT_MS }, () => {
  it('a TUI reaches it through the coordinator’s URL with the user token, and one of the coordinator’s own sessions too: the coordinator relays both', async () => {
    const { host, certificates } = await hostWithCertificates();
    // Its --tls-ca: the CA the sessions' certificates chain to, which the coordinator checks when it relays.
    const coordinatorHost = await sharedCoordinator();
    const session = await runEnrolled(host, certificates, coordinatorHost, listenArgs(certificates));
    const directory = await coordinatorHost.directory();
    await statusIs(directory, session.sessionId, 'idle');

    const userToken = await coordinatorHost.userToken();
    const through = (sessionId: string) => [
      '--url',
      coordinatorHost.gatewayUrl(sessionId),
      '--tls-ca',
      certificates.ca,
    ];
    const tui = spawnOn(coordinatorHost, through(session.sessionId), userToken);
    await whenAttached(tui, 'the TUI attached through the coordinator');
    await answered(tui, 'hello through the coordinator');
    await statusIs(directory, session.sessionId, 'active');

    // A session the coordinator started on its own machine: relayed to its socket, with its connection file's token.
    const project = coordinatorHost.e2e.sandbox.cwd;
    const local = await directory.create(
      { title: 'on the coordinator', workspaceId: workspaceIdOf(project), cwd: project },
      BACKGROUND_CONTEXT,
    );
    const localTui = spawnOn(coordinatorHost, through(local.sessionId), userToken);
    await whenAttached(localTui, 'the TUI attached to the local one');
    await answered(localTui, 'hello next door', 'its answer');
  });

  it('a TUI attached through the coordinator switches to another session of the project through it (/sessions NAME)', async () => {
    const { host, certificates } = await hostWithCertificates();
    const coordinatorHost = await sharedCoordinator();
    const session = await runEnrolled(host, certificates, coordinatorHost, listenArgs(certificates));
    const directory = await coordinatorHost.directory();
    await statusIs(directory, session.sessionId, 'idle');
    // Another session of the same project, which the coordinator runs itself.
    const other = await directory.create(
      { title: 'the second one', workspaceId: workspaceIdOf(host.cwd), cwd: host.cwd },
      BACKGROUND_CONTEXT,
    );

    const tui = spawnOn(
      coordinatorHost,
      ['--url', coordinatorHost.gatewayUrl(session.sessionId), '--tls-ca', certificates.ca],
      await coordinatorHost.userToken(),
    );
    await whenAttached(tui, 'the TUI attached through the coordinator');
    tui.write('/sessions the second one\r');
    // The TUI left the first (its presentation count drops) and attached to the second, both through the coordinator.
    await statusIs(directory, other.sessionId, 'active');
    await statusIs(directory, session.sessionId, 'idle');
    await whenAttached(tui, 'the TUI attached to the second one');
    await answered(tui, 'hello second one', 'the second one’s answer');
  });

  it('through the coordinator’s URL, pi-tui says in one line why it cannot attach: the session token instead of the user’s, no such session', async () => {
    const { host, certificates } = await hostWithCertificates();
    const coordinatorHost = await sharedCoordinator();
    const session = await runEnrolled(host, certificates, coordinatorHost);
    await statusIs(await coordinatorHost.directory(), session.sessionId, 'idle');
    const url = (sessionId: string) => coordinatorHost.gatewayUrl(sessionId);
    const attach = (sessionId: string, token: string) =>
      tuiSays(host, ['--url', url(sessionId), '--tls-ca', certificates.ca], token);
    const { token } = await sessionConnection(session.connectionFile);
    const userToken = await coordinatorHost.userToken();
    // Three TUIs at once: none changes what the others see.
    const [sessionToken, nobody, notListening] = await Promise.all([
      attach(session.sessionId, token),
      attach('s-nobody', userToken),
      attach(session.sessionId, userToken),
    ]);
    expect(sessionToken).toEqual([
      `pi-tui: Cannot attach to ${url(session.sessionId)}: the coordinator refused the token in $PI_TOKEN (the user token of its connection file admits)`,
    ]);
    expect(nobody).toEqual([`pi-tui: Cannot attach to ${url('s-nobody')}: The coordinator has no session s-nobody`]);
    // Registered, but serving no presentations on the network (no --listen where it runs).
    expect(notListening).toEqual([
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
    const { host, certificates } = await hostWithCertificates();
    const first = await coordinator(certificates, { env });
    const second = await coordinator(certificates, { env, keyFrom: first, args: ['--tls-ca', certificates.ca] });
    const session = await runEnrolled(host, certificates, first, listenArgs(certificates));
    await statusIs(await second.directory(), session.sessionId, 'idle');

    const tui = spawnOn(
      second,
      ['--url', second.gatewayUrl(session.sessionId), '--tls-ca', certificates.ca],
      await second.userToken(),
    );
    await whenAttached(tui, 'the TUI attached through the second');
    await answered(tui, 'hello from the other replica');
  });
});
