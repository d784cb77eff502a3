import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sessionFilePath } from '@pi/connection-files';
import type { Result } from 'neverthrow';
import {
  coordinatorAuthentication,
  sessionCredentials,
  startCoordinatorHost,
  type CoordinatorHost,
} from '@pi/host-coordinator';
import { startSessionHost, type SessionHost } from '@pi/host-session';
import { TEST_SESSION_TOKEN, testSessionHostOptions } from '@pi/host-session/testing';
import {
  SessionDirectory,
  SessionPicker,
  type SessionDirectoryService,
  type SessionPickerService,
} from '@pi/session-directory';
import sessionDirectoryCoordinatorFacet from '@pi/session-directory-coordinator';
import sessionDirectorySessionFacet from '@pi/session-directory-session';
import { openPostgresSessionRepo, type PostgresSessionRepo } from '@pi/session-repo';
import { serveHost, type HostTransport, type TransportKind } from '@pi/test-support';
import { createRpcClient, type RpcClient, type SocketFactory } from '@pi/transport-trpc';
import { RED } from './chain';
import { standInProcesses, type StandInProcesses } from './stand-in-processes';

const USER_TOKEN = 'replica-user-token';
const PLUGIN_ID = '@pi/session-directory';
const FAST_RECONNECT = { minDelayMs: 10, maxDelayMs: 50 };

/** One coordinator replica: its own connection pool to the shared database, process manager and listener. */
export interface Replica {
  readonly name: string;
  readonly repo: PostgresSessionRepo;
  readonly processes: StandInProcesses;
  readonly host: CoordinatorHost;
  readonly served: HostTransport;
  /** As `kill -9` leaves it to the others: its connections drop, its database connections end, nothing is said. */
  kill(): Promise<void>;
  readonly killed: boolean;
  /** The local user's directory through this replica. */
  directory(): Promise<SessionDirectoryService>;
}

/** A session host whose upstream reaches "the coordinator service": whichever replica is alive, in turn. */
export interface ReplicaSession {
  readonly sessionId: string;
  readonly host: SessionHost;
  readonly upstream: RpcClient;
  readonly pickers: readonly SessionPickerService[];
}

export interface ReplicaFleet {
  readonly replicas: readonly Replica[];
  readonly sessions: readonly ReplicaSession[];
  close(): Promise<void>;
}

export interface ReplicaFleetOptions {
  readonly url: string;
  readonly schema: string;
  readonly replicas: number;
  readonly sessions: number;
  readonly presentationsPerSession: number;
}

/**
 * Coordinator replicas on one PostgreSQL schema, sharing one credential key: session i runs on replica i mod N (the
 * one status writer of its record), its upstream reaches any live replica, and each session serves presentations.
 */
export async function startReplicaFleet(kind: TransportKind, options: ReplicaFleetOptions): Promise<ReplicaFleet> {
  const cleanup: Array<() => Promise<void> | void> = [];
  const close = async () => {
    for (const step of cleanup.splice(0).reverse()) {
      try {
        await step();
      } catch {
        // A replica killed on purpose has already closed what this step closes.
      }
    }
  };
  try {
    const directory = await mkdtemp(join(tmpdir(), 'pi-fleet-replicas-'));
    cleanup.push(() => rm(directory, { recursive: true, force: true }));
    const credentials = sessionCredentials(randomBytes(32));
    const sessionIds = Array.from({ length: options.sessions }, (_, index) => `s-${index}`);
    const clients: RpcClient[] = [];
    cleanup.push(() => {
      for (const client of clients.splice(0)) client.close();
    });

    const replicas: Replica[] = [];
    for (let index = 0; index < options.replicas; index += 1) {
      const repo = unwrap(await openPostgresSessionRepo({ url: options.url, schema: options.schema }));
      cleanup.push(() => repo.close());
      if (index === 0) await seed(repo, sessionIds);
      const runs = sessionIds.filter((_, session) => session % options.replicas === index);
      const processes = standInProcesses('instant', runs);
      cleanup.push(() => processes.releaseAll());
      const host = unwrap(
        await startCoordinatorHost({
          facets: [{ id: PLUGIN_ID, config: null, facet: sessionDirectoryCoordinatorFacet, module: 'test' }],
          repo,
          processes,
          sessionFile: (sessionId) => sessionFilePath(join(directory, 'data'), sessionId),
          transport: {
            authenticate: coordinatorAuthentication({
              userToken: USER_TOKEN,
              userPrincipal: 'tester',
              credentials,
              repo,
            }),
            keepAlive: false,
          },
        }),
      );
      cleanup.push(async () => void (await host.stop()));
      const served = await serveHost(kind, host.rpc);
      cleanup.push(() => served.close());
      let killed = false;
      replicas.push({
        name: `replica-${index}`,
        repo,
        processes,
        host,
        served,
        get killed() {
          return killed;
        },
        async kill() {
          killed = true;
          await served.stop();
          await repo.close();
        },
        async directory() {
          const client = createRpcClient({
            socketFactory: served.socketFactory,
            connectionParams: { token: USER_TOKEN },
            reconnect: false,
          });
          clients.push(client);
          return client.use(SessionDirectory);
        },
      });
    }

    let turn = 0;
    /** The service address: a new connection goes to the next live replica. */
    const anyReplica: SocketFactory = () => {
      const alive = replicas.filter((replica) => !replica.killed);
      const chosen = alive[turn++ % alive.length] ?? replicas[0];
      if (chosen === undefined) throw new Error('no replica');
      return chosen.served.socketFactory();
    };

    const sessions: ReplicaSession[] = [];
    for (const sessionId of sessionIds) {
      const upstream = createRpcClient({
        socketFactory: anyReplica,
        connectionParams: { token: credentials.issue({ sessionId, workspaceId: RED }) },
        reconnect: FAST_RECONNECT,
      });
      clients.push(upstream);
      const host = unwrap(
        await startSessionHost({
          ...testSessionHostOptions(join(directory, sessionId), {
            facets: [{ id: PLUGIN_ID, facet: sessionDirectorySessionFacet }],
          }),
          identity: { sessionId, workspaceId: RED },
          upstream: { available: true, connection: upstream.connection, use: (token) => upstream.use(token) },
        }),
      );
      cleanup.push(async () => void (await host.stop()));
      const served = await serveHost(kind, host.rpc);
      cleanup.push(() => served.close());
      const pickers: SessionPickerService[] = [];
      for (let presentation = 0; presentation < options.presentationsPerSession; presentation += 1) {
        const client = createRpcClient({
          socketFactory: served.socketFactory,
          connectionParams: { token: TEST_SESSION_TOKEN },
          reconnect: FAST_RECONNECT,
        });
        clients.push(client);
        pickers.push(await client.use(SessionPicker));
      }
      sessions.push({ sessionId, host, upstream, pickers });
    }
    return { replicas, sessions, close };
  } catch (error) {
    await close();
    throw error;
  }
}

async function seed(repo: PostgresSessionRepo, sessionIds: readonly string[]): Promise<void> {
  for (const sessionId of sessionIds) {
    unwrap(
      await repo.create({ sessionId, title: sessionId, workspaceId: RED, ownerId: 'tester', cwd: '/projects/red' }),
    );
    unwrap(await repo.setStatus(sessionId, 'idle'));
  }
}

function unwrap<T, E>(result: Result<T, E>): T {
  if (result.isOk()) return result.value;
  const error = result.error as { message?: string } | string;
  throw new Error(typeof error === 'string' ? error : (error.message ?? String(error)));
}
