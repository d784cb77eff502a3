import { randomBytes } from 'node:crypto';
import { mkdir, rm, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { err, ok, type Result } from 'neverthrow';
import { removeConnectionFile, workspaceIdOf, writeConnectionFile } from '@pi/connection-files';
import { BACKGROUND_CONTEXT, ROOT_TELEMETRY, withTelemetryContext, type TelemetryContext } from '@pi/context';
import { SessionPresence } from '@pi/coordinator-api';
import { failureText, readBundledFacets, resolvePluginSet, type PluginSetRequest } from '@pi/host-kit';
import { reportPresence, startSessionHost } from '@pi/host-session';
import { listenTlsFromFiles, listenWebSocket, tokenAuthentication, type WebSocketListener } from '@pi/transport-trpc';
import { checkAddresses } from './address-check';
import type { CliOptions } from './cli-options';
import { locate } from './locations';
import { sessionDevReload, sessionPluginSource } from './plugin-reloads';
import { followSessionControl, logUpstreamHealth, upstreamFromCredentialFile, upstreamFromHandoff } from './upstream';

/** sun_path holds 108 bytes on Linux (104 on macOS), including the terminating NUL: stay under both. */
const MAX_SOCKET_PATH_BYTES = 103;

export interface RunningSession {
  readonly sessionId: string;
  readonly socketPath: string;
  readonly url: string | null;
  /** `wss://host:port/` when it also serves presentations on TCP over TLS (`--listen`). */
  readonly tlsUrl: string | undefined;
  readonly connectionFile: string;
  /** What opening the session file repaired (a torn last line, runs a crash left unsettled); empty when nothing. */
  readonly recovery: readonly string[];
  /** Resolves when its coordinator asks it to stop (`pi sessions stop`, for a session it cannot signal). */
  readonly stopRequested: Promise<string>;
  /** Stops serving, disposes the plugins in reverse order, closes the session and removes the connection file. */
  stop(): Promise<string[]>;
}

/** Everything `pi-session` does between parsing its flags and waiting for a signal. Failures are one line each. */
export async function startSession(
  options: CliOptions,
  env: NodeJS.ProcessEnv,
  startup: TelemetryContext = ROOT_TELEMETRY,
): Promise<Result<RunningSession, string>> {
  const cwd = resolve(options.cwd);
  if (!(await isDirectory(cwd))) return err(`The project directory does not exist: ${cwd}`);
  // A session enrolled with a coordinator elsewhere is the one its credential file names.
  const remote =
    options.coordinator === undefined
      ? undefined
      : await upstreamFromCredentialFile(options.coordinator, options.sessionId, cwd);
  if (remote?.isErr()) return err(remote.error);
  const sessionId =
    remote?.isOk() === true
      ? remote.value.sessionId
      : (options.sessionId ?? `s-${new Date().toISOString().slice(0, 10)}-${randomBytes(4).toString('hex')}`);
  const where = locate(options, sessionId, env);
  // Built-in (or --manifest), then global, then project plugins; only session facet modules are imported, and every
  // plugin is checked (found, API version) before any code runs. A scope that fails is left out and reported.
  const built = await readBundledFacets(import.meta.url);
  const request: PluginSetRequest<'session'> = {
    host: 'session',
    configDir: where.configDir,
    project: cwd,
    manifestFile: options.manifest,
    built,
    env,
  };
  const plugins = await resolvePluginSet(request);
  if (plugins.isErr()) return err(plugins.error);
  for (const problem of plugins.value.problems) process.stderr.write(`pi-session: ${problem}\n`);
  if (Buffer.byteLength(where.socketPath) > MAX_SOCKET_PATH_BYTES) {
    return err(
      `The socket path is too long for a Unix socket (${Buffer.byteLength(where.socketPath)} bytes, at most ${MAX_SOCKET_PATH_BYTES}): ${where.socketPath}; give a shorter --socket`,
    );
  }
  const busy = await checkAddresses(where.socketPath, options.port);
  if (busy !== undefined) return err(busy);
  const upstream =
    options.upstreamFd === undefined ? undefined : await upstreamFromHandoff(options.upstreamFd, sessionId, cwd);
  if (upstream?.isErr()) return err(upstream.error);
  const coordinator = upstream?.isOk() ? upstream.value.upstream : remote?.isOk() ? remote.value.connect() : undefined;
  // Its credential admits too: the coordinator's gateway relays a presentation with it (the user's token stays there).
  const credential = upstream?.isOk()
    ? upstream.value.credential
    : remote?.isOk()
      ? remote.value.credential
      : undefined;
  const token = randomBytes(32).toString('base64url');
  await mkdir(where.configDir, { recursive: true, mode: 0o700 });
  const created = !(await exists(where.sessionFile));

  let live = plugins.value.facets;
  const log = (line: string) => process.stderr.write(`pi-session ${sessionId}: ${line}\n`);
  const started = await startSessionHost({
    facets: plugins.value.facets,
    reloadSource: sessionPluginSource(request, plugins.value.problems, (facets) => (live = facets)),
    loadProblems: plugins.value.problems,
    identity: { sessionId, workspaceId: workspaceIdOf(cwd) },
    sessionFile: where.sessionFile,
    paths: { dataDir: where.dataDir, configDir: where.configDir, cwd },
    transport: {
      authenticate: tokenAuthentication(credential === undefined ? token : [token, credential], {
        principal: 'local-user',
        claims: { sessionId },
      }),
    },
    upstream: coordinator,
    // The session's log: a coordinator-started session's stderr goes to its log file.
    log,
  });
  if (started.isErr()) {
    // A session this attempt created holds nothing but its header: leave no empty session behind. When the
    // session itself could not be opened (locked by a racing start), the file is not ours to remove.
    if (created && started.error.code !== 'session') await rm(where.sessionFile, { force: true });
    coordinator?.close();
    return err(failureText(started.error.message, started.error.cause, env));
  }
  const host = started.value;
  let stopReporting: (() => void) | undefined;

  const listeners: WebSocketListener[] = [];
  const fail = async (message: string) => {
    await Promise.all(listeners.map((listener) => listener.close()));
    stopReporting?.();
    await host.stop();
    coordinator?.close();
    if (created) await rm(where.sessionFile, { force: true });
    return err(message);
  };
  try {
    await mkdir(dirname(where.socketPath), { recursive: true, mode: 0o700 });
  } catch (error) {
    return fail(
      `Cannot create ${dirname(where.socketPath)}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const socket = await listenWebSocket(host.rpc, { socketPath: where.socketPath });
  if (socket.isErr()) return fail(`Cannot listen on ${where.socketPath}: ${socket.error.message}`);
  listeners.push(socket.value);
  let url: string | null = null;
  if (options.port !== undefined) {
    const tcp = await listenWebSocket(host.rpc, { port: options.port, host: '127.0.0.1' });
    if (tcp.isErr()) return fail(`Cannot listen on 127.0.0.1:${options.port}: ${tcp.error.message}`);
    listeners.push(tcp.value);
    url = tcp.value.url;
  }
  let tlsUrl: string | undefined;
  if (options.listen !== undefined) {
    const tls = await listenTlsFromFiles(host.rpc, options.listen);
    if (tls.isErr()) return fail(tls.error);
    listeners.push(tls.value);
    tlsUrl = tls.value.url;
    url ??= tls.value.url;
  }
  try {
    await writeConnectionFile(where.connectionFile, {
      sessionId,
      cwd,
      socketPath: where.socketPath,
      url,
      token,
      pid: process.pid,
    });
  } catch (error) {
    return fail(
      `Cannot write the connection file ${where.connectionFile}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }

  let askedToStop: (reason: string) => void = () => undefined;
  const stopRequested = new Promise<string>((resolve) => (askedToStop = resolve));
  // Only now can a presentation attach: the first report tells the coordinator this session is ready.
  if (coordinator !== undefined) {
    const upstream = coordinator;
    // The first report, which tells the coordinator this session is ready, is part of the startup's trace.
    let reportContext = withTelemetryContext(startup, BACKGROUND_CONTEXT);
    const reporting = reportPresence(host, upstream, (presence) => {
      const context = reportContext;
      reportContext = BACKGROUND_CONTEXT;
      // Its wss: URL, when it listens: the coordinator's gateway relays presentations there.
      const report = tlsUrl === undefined ? presence : { ...presence, url: tlsUrl };
      return upstream.client.use(SessionPresence).then((service) => service.report(report, context));
    });
    const control = followSessionControl(upstream, sessionId, () => askedToStop('a request of its coordinator'), log);
    // Its log (its log file, for a session the coordinator started) says when the coordinator cannot be reached.
    const logging = logUpstreamHealth(upstream, log);
    stopReporting = () => {
      reporting();
      control();
      logging();
    };
  }

  const dev = options.dev ? sessionDevReload(host, () => live, built, log) : undefined;
  let stopping: Promise<string[]> | undefined;
  return ok({
    sessionId,
    socketPath: where.socketPath,
    url,
    tlsUrl,
    connectionFile: where.connectionFile,
    recovery: host.diagnostics().recovery,
    stopRequested,
    stop: () =>
      (stopping ??= (async () => {
        dev?.close();
        await removeConnectionFile(where.connectionFile);
        await Promise.all(listeners.map((listener) => listener.close()));
        stopReporting?.();
        const report = await host.stop();
        coordinator?.close();
        return report.failures.map((failure) => `${failure.pluginId}: ${failure.message}`);
      })()),
  });
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
