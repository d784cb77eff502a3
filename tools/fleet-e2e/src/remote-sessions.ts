import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { coordinatorFiles, piDirectories, readCoordinatorConnection } from '@pi/connection-files';
import { SessionDirectory, type SessionDirectoryService } from '@pi/session-directory';
import { eventually, killSandboxProcesses, readText } from '@pi/test-support';
import { createRpcClient, webSocketFactory, type RpcClient } from '@pi/transport-trpc';
import type { TestCertificates } from '@pi/transport-trpc/testing';
import { createE2eFixture, readSessionConnection, type E2eFixture, type TuiPty } from '@pi/tui-pty-e2e';

/** The test CA's files, and a server certificate it signed for 127.0.0.1 (shared by every listener of a test). */
export interface CertificateFiles {
  readonly ca: string;
  readonly otherCa: string;
  readonly cert: string;
  readonly key: string;
}

/** Writes `made` (one `makeTestCertificates()`, shared by the file's hosts) into `folder`. */
export async function writeCertificates(folder: string, made: TestCertificates): Promise<CertificateFiles> {
  const files = {
    ca: join(folder, 'ca.pem'),
    otherCa: join(folder, 'other-ca.pem'),
    cert: join(folder, 'server.pem'),
    key: join(folder, 'server.key'),
  };
  await mkdir(folder, { recursive: true });
  await writeFile(files.ca, made.ca);
  await writeFile(files.otherCa, made.otherCa);
  await writeFile(files.cert, made.cert);
  await writeFile(files.key, made.key, { mode: 0o600 });
  return files;
}

/** Serving presentations over `wss:` on a free port of 127.0.0.1, with the test certificate. */
export function listenArgs(certificates: CertificateFiles): string[] {
  return ['--listen', '127.0.0.1:0', '--tls-cert', certificates.cert, '--tls-key', certificates.key];
}

const TLS_LINE = /^pi-coordinator: listening on (wss:\/\/127\.0\.0\.1:\d+\/) too$/m;

/** A `pi-coordinator` in its own sandbox (a host of its own), serving `wss:` beside its socket. */
export interface TlsCoordinator {
  readonly e2e: E2eFixture;
  readonly url: string;
  /** The URL that reaches a session through its gateway (`/sessions/<id>`). */
  gatewayUrl(sessionId: string): string;
  /** The user token of its connection file, which admits over `wss:` too. */
  userToken(): Promise<string>;
  /** `pi-coordinator enroll` for a session in `cwd`; resolves with the credential file it wrote. */
  enroll(cwd: string, out: string): Promise<string>;
  /** Where its own sessions keep their files (connection files included). */
  readonly dataDir: string;
  /** Its SessionDirectory over `wss:`, as the user. */
  directory(): Promise<SessionDirectoryService>;
  /** The pid its pid file names. */
  pid(): Promise<number>;
  /**
   * SIGKILL to it and to everything started in its sandbox (sessions, TUIs), then the sandbox removed: no test here is
   * about its own stop, which would cost a `pi-coordinator stop` and each session's orderly exit.
   */
  dispose(): Promise<void>;
}

/**
 * Starts `pi-coordinator start --listen 127.0.0.1:0` with the test certificate; `env` goes on top of its sandbox's
 * (a database URL). `key` is another replica's credential key, copied in as a deployment's secret store would.
 */
export async function startTlsCoordinator(
  certificates: CertificateFiles,
  clients: RpcClient[],
  options: { readonly env?: NodeJS.ProcessEnv; readonly keyFrom?: TlsCoordinator; readonly args?: string[] } = {},
): Promise<TlsCoordinator> {
  const e2e = await createE2eFixture();
  Object.assign(e2e.sandbox.env, options.env ?? {});
  const directories = piDirectories(e2e.sandbox.env);
  if (options.keyFrom !== undefined) {
    const key = join(directories.dataDir, 'coordinator', 'secret');
    await mkdir(dirname(key), { recursive: true, mode: 0o700 });
    await copyFile(join(options.keyFrom.e2e.sandbox.dataDir, 'coordinator', 'secret'), key);
  }
  const files = coordinatorFiles(directories);
  const started = await e2e.coordinator([
    'start',
    '--idle-stop',
    '0',
    ...listenArgs(certificates),
    ...(options.args ?? []),
  ]);
  if (started.code !== 0) throw new Error(`pi-coordinator did not start:\n${started.output}`);
  const log = join(files.logDir, 'coordinator.log');
  let url = '';
  await eventually(() => (url = TLS_LINE.exec(readText(log))?.[1] ?? '') !== '', 8000);
  const userToken = async () => {
    const connection = await readCoordinatorConnection(files.connectionFile);
    if (connection.isErr()) throw new Error(connection.error);
    return connection.value.token;
  };
  return {
    e2e,
    url,
    gatewayUrl: (sessionId) => `${url}sessions/${sessionId}`,
    dataDir: directories.dataDir,
    userToken,
    async enroll(cwd, out) {
      const enrolled = await e2e.coordinator(['enroll', '--cwd', cwd, '--out', out, '--title', 'on another host']);
      if (enrolled.code !== 0) throw new Error(`pi-coordinator enroll failed:\n${enrolled.output}`);
      return out;
    },
    async directory() {
      const client = createRpcClient({
        socketFactory: webSocketFactory({ url }, { ca: await readFile(certificates.ca, 'utf8') }),
        connectionParams: { token: await userToken() },
        reconnect: false,
      });
      clients.push(client);
      return client.use(SessionDirectory);
    },
    pid: async () => Number((await readFile(files.pidFile, 'utf8')).trim()),
    async dispose() {
      await killSandboxProcesses({ root: e2e.sandbox.root, directories, files });
      await e2e.sandbox.remove();
    },
  };
}

/** Resolves once the directory lists the session with this status. */
export async function statusIs(directory: SessionDirectoryService, sessionId: string, status: string): Promise<void> {
  await eventually(
    () => directory.state.value.sessions.some((s) => s.sessionId === sessionId && s.status === status),
    8000,
  );
}

/** Resolves once `tui` says it is connected (`what` names the wait when it fails). */
export async function whenAttached(tui: TuiPty, what: string): Promise<void> {
  await tui.waitForScreen((screen) => screen.text.includes('● connected'), what);
}

/** Sends `prompt` and resolves once the stand-in model's answer to it is on screen. */
export async function answered(tui: TuiPty, prompt: string, what = 'the answer'): Promise<void> {
  tui.write(prompt);
  tui.press('enter');
  await tui.waitForScreen((screen) => screen.text.includes(`You said: ${prompt}`), what);
}

/** The token and addresses of a session's connection file (its `url` is the `wss:` one with `--listen`). */
export async function sessionConnection(
  connectionFile: string,
): Promise<{ token: string; url: string | null; socketPath: string }> {
  const info = await readSessionConnection(connectionFile);
  return { token: info.token, url: info.url, socketPath: info.socketPath };
}
