import { randomBytes } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { err, ok, type Result } from 'neverthrow';
import {
  coordinatorFiles,
  connectionFilePath,
  findPiProgram,
  isRunning,
  piDirectories,
  readConnectionFile,
  readCoordinatorConnection,
  readPidFile,
  sessionFilePath,
  writeCoordinatorConnection,
  type CoordinatorFiles,
} from '@pi/connection-files';
import {
  coordinatorAuthentication,
  createSessionControl,
  sessionCredentials,
  startCoordinatorHost,
} from '@pi/host-coordinator';
import { failureText, readBundledFacets, resolvePluginSet } from '@pi/host-kit';
import { SessionProcesses, SessionsElsewhere } from '@pi/session-processes';
import type { SessionRepo } from '@pi/session-repo';
import { listenTlsFromFiles, listenWebSocket } from '@pi/transport-trpc';
import type { CliOptions } from './cli-options';
import { coordinatorSecret } from './coordinator-secret';
import { SESSION_NODE_FLAGS, nodeArguments } from './node-flags';
import { replicaPeers, type ReplicaPeers } from './replica-peers';
import { acquireRuntimeLock } from './runtime-lock';
import { configuredDatabase, openSessionRecords } from './session-records';

export interface RunningCoordinator {
  readonly files: CoordinatorFiles;
  /** Sessions whose processes outlived the previous coordinator and were taken over. */
  readonly adopted: readonly string[];
  /** `wss://host:port/` when it also listens on TCP over TLS. */
  readonly tlsUrl: string | undefined;
  /** Stops its session processes, closes its connections and records, removes its runtime files. */
  stop(): Promise<string[]>;
}

/**
 * Everything `pi-coordinator run` does between parsing its flags and waiting for a signal. `programUrl` is the
 * program's entry module: its bundle's folder holds the built-in facets and sits beside `pi-session`'s.
 */
export async function startCoordinator(
  options: CliOptions,
  env: NodeJS.ProcessEnv,
  programUrl: string,
): Promise<Result<RunningCoordinator, string>> {
  const directories = piDirectories(env, options);
  const files = coordinatorFiles(directories);
  const lock = await acquireRuntimeLock(files.lockFile);
  if (lock.isErr()) return err(`A coordinator already runs (pid ${lock.error.running})`);
  const cleanups: Array<() => Promise<unknown> | unknown> = [() => lock.value.release()];
  const fail = async (message: string) => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    return err(message);
  };

  // The built-in (or --manifest) and the user's global plugins; never a project's, whose code stays out of the daemon.
  const plugins = await resolvePluginSet({
    host: 'coordinator',
    configDir: directories.configDir,
    manifestFile: options.manifest,
    built: await readBundledFacets(programUrl),
  });
  if (plugins.isErr()) return fail(plugins.error);
  for (const problem of plugins.value.problems) process.stderr.write(`pi-coordinator: ${problem}\n`);
  const piSession = await findPiProgram('pi-session', programUrl, env);
  if (piSession === undefined) return fail('Cannot find pi-session, which runs the sessions');

  const repo = await openSessionRecords(configuredDatabase(options.database, env), directories.dataDir);
  if (repo.isErr()) return fail(repo.error);
  cleanups.push(() => repo.value.close());
  const credentials = sessionCredentials(await coordinatorSecret(join(directories.dataDir, 'coordinator', 'secret')));
  const userToken = randomBytes(32).toString('base64url');

  const tlsCa = options.tlsCa === undefined ? undefined : await readCaFile(options.tlsCa);
  if (tlsCa?.isErr()) return fail(tlsCa.error);
  // The sessions it starts may reconnect to another replica when this one dies (docs/scaling.md): the --replica
  // flags, and on shared records the replicas that announce themselves there (known once this one listens).
  const known: { peers?: ReplicaPeers } = {};
  const replicas = () => {
    const urls = known.peers?.others() ?? options.replicas;
    return {
      ...(urls.length === 0 ? {} : { replicas: [...urls] }),
      ...(tlsCa?.isOk() === true ? { ca: tlsCa.value } : {}),
    };
  };

  const passOn = [
    '--data-dir',
    directories.dataDir,
    '--config-dir',
    directories.configDir,
    ...(options.manifest === undefined ? [] : ['--manifest', options.manifest]),
  ];
  const sessionNode = nodeArguments(SESSION_NODE_FLAGS, [], env['NODE_OPTIONS']);
  const processes = new SessionProcesses({
    command: (launch) => ({
      file: process.execPath,
      args: [
        ...sessionNode,
        piSession,
        '--cwd',
        launch.cwd,
        '--session',
        launch.sessionId,
        '--upstream-fd',
        '3',
        ...passOn,
      ],
    }),
    handoff: (launch) => ({
      version: 1,
      socketPath: files.socketPath,
      credential: credentials.issue(launch),
      sessionId: launch.sessionId,
      workspaceId: launch.workspaceId,
      ...replicas(),
    }),
    env,
    logDir: files.logDir,
    // Generous: a session loads every plugin before it reports, and a busy machine (or a cold tsx cache) is slow.
    startTimeoutMs: 60_000,
  });
  // A shared store's records are other replicas' too: their statuses are theirs to write, never this one's to close.
  const survivors = repo.value.shared !== undefined ? [] : await closeTheDead(repo.value, directories.dataDir);

  // Sessions it did not start are asked to stop over their own connection (`pi sessions stop`, a removal).
  const control = createSessionControl();
  const elsewhere = new SessionsElsewhere(processes, { askToStop: (sessionId) => control.askToStop(sessionId) });
  const host = await startCoordinatorHost({
    facets: plugins.value.facets,
    repo: repo.value,
    // Sessions enrolled to run elsewhere, or started by another replica, are followed by their connection here.
    processes: elsewhere,
    credentials,
    sessionControl: control,
    // A presentation reaches any session through this coordinator's URL (`/sessions/<id>`): this machine's by the
    // socket and token of its connection file, another host's by the wss: URL it reported (its certificate checked
    // against --tls-ca).
    gateway: {
      localSession: async (sessionId) => {
        const info = await readConnectionFile(connectionFilePath(directories.dataDir, sessionId));
        return info.isOk() && isRunning(info.value.pid)
          ? { socketPath: info.value.socketPath, token: info.value.token }
          : undefined;
      },
      ...(tlsCa?.isOk() === true ? { ca: tlsCa.value } : {}),
    },
    sessionFile: (sessionId) => sessionFilePath(directories.dataDir, sessionId),
    idleStopMs: options.idleStopMs,
    transport: {
      authenticate: coordinatorAuthentication({
        userToken,
        userPrincipal: 'local-user',
        credentials,
        repo: repo.value,
      }),
    },
  });
  if (host.isErr()) return fail(failureText(host.error.message, host.error.cause, env));
  cleanups.push(() => host.value.stop());
  // Run before the host stops (cleanups run in reverse): the directory still hears every session close.
  cleanups.push(() => processes.stopAll());
  // Adopted only now: their status changes reach the directory, whose facet is listening.
  for (const survivor of survivors) processes.adopt(survivor.launch, survivor.pid);

  const listener = await listenWebSocket(host.value, { socketPath: files.socketPath });
  if (listener.isErr()) return fail(`Cannot listen on ${files.socketPath}: ${listener.error.message}`);
  cleanups.push(() => listener.value.close());
  const tls = options.listen === undefined ? undefined : await listenTlsFromFiles(host.value, options.listen);
  if (tls?.isErr()) return fail(tls.error);
  if (tls?.isOk()) cleanups.push(() => tls.value.close());
  // Announced before the connection file is written: a replica that reports itself started is listed already.
  const log = (line: string) => void process.stderr.write(`pi-coordinator: ${line}\n`);
  const ownUrl = tls?.isOk() ? tls.value.url : undefined;
  // The sessions connected here are told the others too (SessionControl), so one enrolled with one URL fails over.
  const announced = await replicaPeers(repo.value.shared?.replicas, ownUrl, options.replicas, log, (others) =>
    control.setReplicas(others),
  );
  known.peers = announced;
  cleanups.push(() => announced.stop());
  // Runs before the listeners close (cleanups run in reverse): the sessions elsewhere move on, not closed.
  cleanups.push(() => elsewhere.leave());
  await writeCoordinatorConnection(files.connectionFile, {
    socketPath: files.socketPath,
    token: userToken,
    pid: process.pid,
  });
  cleanups.push(() =>
    removeOwn(files.connectionFile, async (path) => (await readCoordinatorConnection(path)).unwrapOr(undefined)?.pid),
  );
  await writeFile(files.pidFile, `${process.pid}\n`, { mode: 0o600 });
  cleanups.push(() => removeOwn(files.pidFile, readPidFile));

  let stopping: Promise<string[]> | undefined;
  return ok({
    files,
    adopted: survivors.map((survivor) => survivor.launch.sessionId),
    tlsUrl: tls?.isOk() ? tls.value.url : undefined,
    stop: () =>
      (stopping ??= (async () => {
        const failures: string[] = [];
        // Sessions first, while the directory still hears their status; then connections, plugins, records.
        for (const cleanup of cleanups.reverse()) {
          try {
            await cleanup();
          } catch (error) {
            failures.push(error instanceof Error ? error.message : String(error));
          }
        }
        return [...failures, ...host.value.failures().map((failure) => `${failure.owner}: ${failure.message}`)];
      })()),
  });
}

/**
 * Records that say a process runs, after a coordinator stopped without closing them (SIGKILL, a crash): a process
 * still alive, per its session's connection file, is adopted; the rest are closed.
 */
async function closeTheDead(
  repo: SessionRepo,
  dataDir: string,
): Promise<Array<{ launch: { sessionId: string; workspaceId: string; cwd: string }; pid: number }>> {
  const survivors = [];
  for (const record of await repo.list()) {
    if (record.status === 'closed') continue;
    const info = await readConnectionFile(connectionFilePath(dataDir, record.sessionId));
    if (info.isOk() && isRunning(info.value.pid)) {
      const { sessionId, workspaceId, cwd } = record;
      survivors.push({ launch: { sessionId, workspaceId, cwd }, pid: info.value.pid });
    } else {
      await repo.setStatus(record.sessionId, 'closed');
    }
  }
  return survivors;
}

async function readCaFile(file: string): Promise<Result<string, string>> {
  try {
    return ok(await readFile(file, 'utf8'));
  } catch (error) {
    return err(`Cannot read --tls-ca ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * Removes a runtime file while it still names this process: one a coordinator started since wrote there (this one's
 * runtime folder wiped under it, say at logout) is that coordinator's.
 */
async function removeOwn(path: string, ownerOf: (path: string) => Promise<number | undefined>): Promise<void> {
  if ((await ownerOf(path)) === process.pid) await rm(path, { force: true });
}
