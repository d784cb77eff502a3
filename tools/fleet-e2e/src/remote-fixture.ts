import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach } from 'vitest';
import { createRpcClient, webSocketFactory, type RpcClient } from '@pi/transport-trpc';
import { makeTestCertificates, type TestCertificates } from '@pi/transport-trpc/testing';
import { createSandbox, spawnTui, startSession, type Sandbox, type SessionProcess, type TuiPty } from '@pi/tui-pty-e2e';
import {
  sessionConnection,
  startTlsCoordinator,
  writeCertificates,
  type CertificateFiles,
  type TlsCoordinator,
} from './remote-sessions';

/** Real processes (tsx starts, a TLS handshake each): generous, never asserted on. */
export const REMOTE_TIMEOUT_MS = 120_000;

/**
 * What a test of sessions on other hosts starts; everything is killed and removed after each test, but the shared
 * coordinator, after the file. The file's hosts and coordinators share one test CA and server certificate.
 */
export interface RemoteFixture {
  /** A `pi-coordinator` serving `wss:` with the test certificate, in a sandbox of its own. */
  coordinator(
    certificates: CertificateFiles,
    options?: Parameters<typeof startTlsCoordinator>[2],
  ): Promise<TlsCoordinator>;
  /**
   * One `pi-coordinator` for the tests of the file that do not restart, kill or replicate it, started on first use:
   * serving `wss:` with the test certificate and relaying to sessions whose certificates chain to the test CA
   * (`--tls-ca`). Each test enrolls and starts sessions of its own in it, on hosts of its own.
   */
  sharedCoordinator(): Promise<TlsCoordinator>;
  /** Another host's home: a sandbox with its own data directory, where a session runs. */
  elsewhere(): Promise<Sandbox>;
  /** Another host's home with the test certificates in its `tls/` folder. */
  hostWithCertificates(): Promise<{ readonly host: Sandbox; readonly certificates: CertificateFiles }>;
  runSession(sandbox: Sandbox, args: readonly string[]): Promise<SessionProcess>;
  /**
   * A session on `host` enrolled with `coordinator` (`--coordinator URL --credential-file FILE --tls-ca CA`), with
   * `args` after those.
   */
  runEnrolled(
    host: Sandbox,
    certificates: CertificateFiles,
    coordinator: TlsCoordinator,
    args?: readonly string[],
  ): Promise<SessionProcess>;
  /** A presentation of the session: a client on its socket with its connection file's token. */
  present(connectionFile: string): Promise<RpcClient>;
  /** `pi-tui <args>` in a pty in the sandbox's project, with `token` in `$PI_TOKEN`. */
  spawn(sandbox: Sandbox, args: readonly string[], token: string): TuiPty;
  /** `pi-tui <args>` on the coordinator's host (in its sandbox), with `token` in `$PI_TOKEN`. */
  spawnOn(coordinator: TlsCoordinator, args: readonly string[], token: string): TuiPty;
  /** `pi-tui <args>` in `sandbox` until it exits: the lines it said (`pi-tui: …`), as when it cannot attach. */
  tuiSays(sandbox: Sandbox, args: readonly string[], token: string): Promise<string[]>;
  /** A TUI started otherwise, killed after the test too. */
  track(tui: TuiPty): TuiPty;
}

/** Registers the teardown (call it at the top of a test file) and returns the starters. */
export function remoteFixture(): RemoteFixture {
  const clients: RpcClient[] = [];
  const coordinators: TlsCoordinator[] = [];
  const sandboxes: Sandbox[] = [];
  const sessions: SessionProcess[] = [];
  const tuis: TuiPty[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await Promise.all(tuis.splice(0).map((tui) => tui.kill()));
    await Promise.all(sessions.splice(0).map((session) => session.stop('SIGKILL')));
    await Promise.all(coordinators.splice(0).map((coordinator) => coordinator.dispose()));
    await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.remove()));
  }, REMOTE_TIMEOUT_MS);

  let made: Promise<TestCertificates> | undefined;
  const testCertificates = () => (made ??= makeTestCertificates());
  let shared: Promise<{ coordinator: TlsCoordinator; folder: string }> | undefined;
  afterAll(async () => {
    const started = await shared?.catch(() => undefined);
    await started?.coordinator.dispose();
    if (started !== undefined) await rm(started.folder, { recursive: true, force: true });
  }, REMOTE_TIMEOUT_MS);

  const track = (tui: TuiPty) => {
    tuis.push(tui);
    return tui;
  };
  const spawn = (sandbox: Sandbox, args: readonly string[], token: string) =>
    track(spawnTui({ args, cwd: sandbox.cwd, env: { ...sandbox.env, PI_TOKEN: token } }));
  const elsewhere = async () => {
    const sandbox = await createSandbox();
    sandboxes.push(sandbox);
    return sandbox;
  };
  const runSession = async (sandbox: Sandbox, args: readonly string[]) => {
    const session = await startSession(sandbox, args);
    sessions.push(session);
    return session;
  };
  return {
    async coordinator(certificates, options = {}) {
      const started = await startTlsCoordinator(certificates, clients, options);
      coordinators.push(started);
      return started;
    },
    sharedCoordinator() {
      shared ??= (async () => {
        const folder = await mkdtemp(join(tmpdir(), 'pi-fleet-tls-'));
        try {
          const certificates = await writeCertificates(folder, await testCertificates());
          const args = ['--tls-ca', certificates.ca];
          return { coordinator: await startTlsCoordinator(certificates, clients, { args }), folder };
        } catch (error) {
          await rm(folder, { recursive: true, force: true });
          throw error;
        }
      })();
      return shared.then((started) => started.coordinator);
    },
    elsewhere,
    async hostWithCertificates() {
      const host = await elsewhere();
      return { host, certificates: await writeCertificates(join(host.root, 'tls'), await testCertificates()) };
    },
    runSession,
    async runEnrolled(host, certificates, coordinator, args = []) {
      const credential = await coordinator.enroll(host.cwd, join(host.root, 'credential.json'));
      return runSession(host, [
        ...['--coordinator', coordinator.url, '--credential-file', credential, '--tls-ca', certificates.ca],
        ...args,
      ]);
    },
    async present(connectionFile) {
      const info = await sessionConnection(connectionFile);
      const client = createRpcClient({
        socketFactory: webSocketFactory({ socketPath: info.socketPath }),
        connectionParams: { token: info.token },
        reconnect: false,
      });
      clients.push(client);
      await client.whenConnected();
      return client;
    },
    spawn,
    spawnOn: (coordinator, args, token) => track(coordinator.e2e.spawnTui(args, undefined, { PI_TOKEN: token })),
    async tuiSays(sandbox, args, token) {
      const tui = spawn(sandbox, args, token);
      await tui.exited;
      const lines = tui.output().split(/\r?\n/);
      return lines.filter((line) => line.includes('pi-tui: ')).map((line) => line.slice(line.indexOf('pi-tui: ')));
    },
    track,
  };
}
