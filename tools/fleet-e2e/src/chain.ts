import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Result } from 'neverthrow';
import { sessionFilePath, workspaceIdOf } from '@pi/connection-files';
import {
  coordinatorAuthentication,
  sessionCredentials,
  startCoordinatorHost,
  type CoordinatorHost,
  type SessionCredentials,
} from '@pi/host-coordinator';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { SessionPresence } from '@pi/coordinator-api';
import { reportPresence, startSessionHost, type SessionHost } from '@pi/host-session';
import { TEST_SESSION_TOKEN, testSessionHostOptions, type TestFacet } from '@pi/host-session/testing';
import { SessionPicker, type SessionPickerService } from '@pi/session-directory';
import sessionDirectoryCoordinatorFacet, { PROVISIONAL_TITLE } from '@pi/session-directory-coordinator';
import sessionDirectorySessionFacet from '@pi/session-directory-session';
import { openSqliteSessionRepo, type SessionRepo } from '@pi/session-repo';
import { serveHost, type HostTransport, type TransportKind } from '@pi/test-support';
import { createRpcClient, type RpcClient, type SocketFactory } from '@pi/transport-trpc';
import { standInProcesses, type StandInProcesses, type StartMode } from './stand-in-processes';

/** Workspace ids as the coordinator derives them from a project directory, so the user may create in them too. */
export const RED = workspaceIdOf('/projects/red');
export const BLUE = workspaceIdOf('/projects/blue');
/** The chain's own session, another session of its workspace, and one of another workspace. */
export const SELF = 'self';
export const RED_OTHER = 'red-other';
export const BLUE_ONE = 'blue-one';

const USER_TOKEN = 'fleet-user-token';
const PLUGIN_ID = '@pi/session-directory';
const FAST_RECONNECT = { minDelayMs: 10, maxDelayMs: 50 };

/** A client that keeps every frame its socket received, as raw text. */
export interface RecordingClient {
  readonly client: RpcClient;
  readonly frames: string[];
  /** The close code of each of its sockets that closed. */
  readonly closes: number[];
}

export interface Presentation extends RecordingClient {
  readonly picker: SessionPickerService;
}

export interface Chain {
  readonly repo: SessionRepo;
  readonly processes: StandInProcesses;
  readonly credentials: SessionCredentials;
  readonly coordinator: CoordinatorHost;
  /** The coordinator on the network: `stop()` takes it off, `restore()` brings it back. */
  readonly coordinatorServed: HostTransport;
  /** The session host (a new one after `restartSession`). */
  readonly session: SessionHost;
  /** The session host's one client of its coordinator. */
  readonly upstream: RpcClient;
  readonly presentations: readonly Presentation[];
  /** Another presentation of the session host. */
  present(): Promise<Presentation>;
  /** Stops the session host (its presentations lose it) and starts it again on the same files, as a restarted
   *  session process would be; `present()` then attaches to the new one. */
  restartSession(): Promise<void>;
  /** A client straight to the coordinator with this token: the local user's, a session credential, a forgery. */
  connectCoordinator(token: string, options?: { reconnect?: false }): RecordingClient;
  readonly userToken: string;
  /** Where session files are, as the coordinator reads them (`sessions/<id>.jsonl`). */
  readonly dataDir: string;
  close(): Promise<void>;
}

export interface ChainOptions {
  readonly presentations: number;
  readonly processes?: StartMode;
  /** More facets for the session host, after the session directory's (a model, a driver of its lane). */
  readonly sessionFacets?: readonly TestFacet[];
  /** The chain's own session starts unnamed (a placeholder its first prompt replaces) instead of titled. */
  readonly unnamed?: boolean;
  /** The session host reports its presentations and whether it is busy, as a session process does. */
  readonly reportsPresence?: boolean;
  /** The coordinator stops sessions idle this long (default: never). */
  readonly idleStopMs?: number;
}

/**
 * The whole chain in one process: SQLite records on a temporary file, a stand-in process manager, the coordinator
 * with the session directory's coordinator facet, one session host (`self`, workspace RED) whose upstream is a
 * real client of the coordinator, and presentations of that session host — each hop over `kind`.
 */
export async function startChain(kind: TransportKind, options: ChainOptions): Promise<Chain> {
  const cleanup: Array<() => Promise<void> | void> = [];
  const close = async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  };
  try {
    return await assemble(kind, options, cleanup, close);
  } catch (error) {
    await close();
    throw error;
  }
}

async function assemble(
  kind: TransportKind,
  options: ChainOptions,
  cleanup: Array<() => Promise<void> | void>,
  close: () => Promise<void>,
): Promise<Chain> {
  const directory = await mkdtemp(join(tmpdir(), 'pi-fleet-e2e-'));
  cleanup.push(() => rm(directory, { recursive: true, force: true }));

  const dataDir = join(directory, 'data');
  const repo = unwrap(openSqliteSessionRepo({ file: join(directory, 'coordinator', 'sessions.db') }));
  cleanup.push(() => repo.close());
  await seed(repo, options.unnamed === true);

  const processes = standInProcesses(options.processes ?? 'instant', [SELF, RED_OTHER, BLUE_ONE]);
  cleanup.push(() => processes.releaseAll());
  const credentials = sessionCredentials(randomBytes(32));
  const coordinator = unwrap(
    await startCoordinatorHost({
      facets: [{ id: PLUGIN_ID, config: null, facet: sessionDirectoryCoordinatorFacet, module: 'test' }],
      repo,
      processes,
      sessionFile: (sessionId) => sessionFilePath(dataDir, sessionId),
      ...(options.idleStopMs === undefined ? {} : { idleStopMs: options.idleStopMs }),
      credentials,
      transport: {
        authenticate: coordinatorAuthentication({ userToken: USER_TOKEN, userPrincipal: 'tester', credentials, repo }),
        keepAlive: false,
      },
    }),
  );
  cleanup.push(async () => void (await coordinator.stop()));
  const coordinatorServed = await serveHost(kind, coordinator.rpc);
  cleanup.push(() => coordinatorServed.close());

  const clients: RpcClient[] = [];
  cleanup.push(() => {
    for (const client of clients.splice(0)) client.close();
  });
  const open = (socketFactory: SocketFactory, token: string, reconnect: false | typeof FAST_RECONNECT) => {
    const frames: string[] = [];
    const closes: number[] = [];
    const client = createRpcClient({
      socketFactory: () => {
        const socket = socketFactory();
        socket.onMessage((data) => frames.push(data));
        socket.onClose((code) => closes.push(code));
        return socket;
      },
      connectionParams: { token },
      reconnect,
    });
    clients.push(client);
    return { client, frames, closes };
  };

  const sessionDirectory = join(directory, 'session');
  /** One run of the session host: its upstream client, the host, and the host on the network. */
  const startSession = async () => {
    const upstream = createRpcClient({
      socketFactory: coordinatorServed.socketFactory,
      connectionParams: { token: credentials.issue({ sessionId: SELF, workspaceId: RED }) },
      reconnect: FAST_RECONNECT,
    });
    const facets = [{ id: PLUGIN_ID, facet: sessionDirectorySessionFacet }, ...(options.sessionFacets ?? [])];
    const started = await startSessionHost({
      ...testSessionHostOptions(sessionDirectory, { facets }),
      identity: { sessionId: SELF, workspaceId: RED },
      upstream: { available: true, connection: upstream.connection, use: (token) => upstream.use(token) },
    });
    if (started.isErr()) upstream.close();
    const session = unwrap(started);
    const served = await serveHost(kind, session.rpc);
    const stopReporting =
      options.reportsPresence === true
        ? reportPresence(session, upstream, (presence) =>
            upstream.use(SessionPresence).then((service) => service.report(presence, BACKGROUND_CONTEXT)),
          )
        : () => undefined;
    // The served host first, then the host, then its upstream client, as a session process ends.
    const stop = async () => {
      stopReporting();
      await served.close();
      await session.stop();
      upstream.close();
    };
    return { upstream, session, served, stop };
  };
  let current = await startSession();
  cleanup.push(() => current.stop());

  const present = async (): Promise<Presentation> => {
    const opened = open(current.served.socketFactory, TEST_SESSION_TOKEN, FAST_RECONNECT);
    return { ...opened, picker: await opened.client.use(SessionPicker) };
  };
  const presentations: Presentation[] = [];
  for (let index = 0; index < options.presentations; index++) presentations.push(await present());

  return {
    repo,
    processes,
    credentials,
    coordinator,
    coordinatorServed,
    get session() {
      return current.session;
    },
    get upstream() {
      return current.upstream;
    },
    presentations,
    present,
    async restartSession() {
      await current.stop();
      current = await startSession();
    },
    connectCoordinator: (token, connect = {}) =>
      open(coordinatorServed.socketFactory, token, connect.reconnect ?? FAST_RECONNECT),
    userToken: USER_TOKEN,
    dataDir,
    close,
  };
}

async function seed(repo: SessionRepo, unnamed: boolean): Promise<void> {
  const self = unnamed ? { title: PROVISIONAL_TITLE, provisionalTitle: true } : { title: 'this session' };
  const records = [
    { sessionId: SELF, ...self, workspaceId: RED, ownerId: 'tester', cwd: '/projects/red' },
    { sessionId: RED_OTHER, title: 'red neighbour', workspaceId: RED, ownerId: 'tester', cwd: '/projects/red' },
    { sessionId: BLUE_ONE, title: 'blue secret', workspaceId: BLUE, ownerId: 'someone', cwd: '/projects/blue' },
  ];
  for (const record of records) {
    unwrap(await repo.create(record));
    unwrap(await repo.setStatus(record.sessionId, 'idle'));
  }
}

function unwrap<T>(result: Result<T, { readonly code: string; readonly message: string }>): T {
  if (result.isOk()) return result.value;
  throw new Error(`${result.error.code}: ${result.error.message}`);
}

/** Writes a session file of `sessionId` as a session process would: its header, naming `cwd` (and a fork's source). */
export async function writeSessionFile(
  dataDir: string,
  sessionId: string,
  header: { cwd: string; forkedFrom?: string },
): Promise<void> {
  const file = sessionFilePath(dataDir, sessionId);
  await mkdir(dirname(file), { recursive: true });
  const forkedFrom =
    header.forkedFrom === undefined ? {} : { forkedFrom: { sessionId: header.forkedFrom, entryId: null } };
  const line = {
    type: 'session',
    version: 1,
    sessionId,
    cwd: header.cwd,
    createdAt: new Date(0).toISOString(),
    ...forkedFrom,
  };
  await writeFile(file, `${JSON.stringify(line)}\n`);
}
