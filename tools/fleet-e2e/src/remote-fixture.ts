import { afterEach } from 'vitest';
import { createRpcClient, webSocketFactory, type RpcClient } from '@pi/transport-trpc';
import { createSandbox, spawnTui, startSession, type Sandbox, type SessionProcess, type TuiPty } from '@pi/tui-pty-e2e';
import { sessionConnection, startTlsCoordinator, type CertificateFiles, type TlsCoordinator } from './remote-sessions';

/** Real processes (tsx starts, a TLS handshake each): generous, never asserted on. */
export const REMOTE_TIMEOUT_MS = 120_000;

/** What a test of sessions on other hosts starts; everything is stopped and removed after each test. */
export interface RemoteFixture {
  /** A `pi-coordinator` serving `wss:` with the test certificate, in a sandbox of its own. */
  coordinator(
    certificates: CertificateFiles,
    options?: Parameters<typeof startTlsCoordinator>[2],
  ): Promise<TlsCoordinator>;
  /** Another host's home: a sandbox with its own data directory, where a session runs. */
  elsewhere(): Promise<Sandbox>;
  runSession(sandbox: Sandbox, args: readonly string[]): Promise<SessionProcess>;
  /** A presentation of the session: a client on its socket with its connection file's token. */
  present(connectionFile: string): Promise<RpcClient>;
  /** `pi-tui <args>` in a pty in the sandbox's project, with `token` in `$PI_TOKEN`. */
  spawn(sandbox: Sandbox, args: readonly string[], token: string): TuiPty;
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
    for (const coordinator of coordinators.splice(0)) await coordinator.e2e.dispose();
    for (const sandbox of sandboxes.splice(0)) await sandbox.remove();
  }, REMOTE_TIMEOUT_MS);

  const track = (tui: TuiPty) => {
    tuis.push(tui);
    return tui;
  };
  return {
    async coordinator(certificates, options = {}) {
      const started = await startTlsCoordinator(certificates, clients, options);
      coordinators.push(started);
      return started;
    },
    async elsewhere() {
      const sandbox = await createSandbox();
      sandboxes.push(sandbox);
      return sandbox;
    },
    async runSession(sandbox, args) {
      const session = await startSession(sandbox, args);
      sessions.push(session);
      return session;
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
    spawn: (sandbox, args, token) =>
      track(spawnTui({ args, cwd: sandbox.cwd, env: { ...sandbox.env, PI_TOKEN: token } })),
    track,
  };
}
