import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { err, ok, type Result } from 'neverthrow';
import { SessionControl, SessionEnrollment, SessionPresence } from '@pi/coordinator-api';
import { ProvidingSide, runFacets, type ExposeOptions, type LoadedFacet } from '@pi/host-kit';
import type { KernelStopReport } from '@pi/kernel';
import { PLUGIN_API_VERSION, requireSessionIdentity } from '@pi/plugin-api';
import type { OwnerMessage } from '@pi/registry';
import type { SessionRepo } from '@pi/session-repo';
import { relayAdmission, relayWebSocket, type RpcHost, type ServerSocket } from '@pi/transport-trpc';
import { Fleet, type SessionProcessControl } from './fleet';
import type { SessionControlSide } from './session-control';
import type { SessionCredentials } from './session-credentials';
import { sessionEnrollment } from './session-enrollment';
import { gatewaySessionId, sessionGateway, type ConnectedSession, type SessionGatewayOptions } from './session-gateway';

export interface CoordinatorHostOptions {
  /** The manifest's coordinator facets, loaded in manifest order. */
  readonly facets: readonly LoadedFacet<'coordinator'>[];
  /** The application's session records; the host never closes it (the application opened it). */
  readonly repo: SessionRepo;
  /** The application's process manager; the host never stops it (the application decides what stopping means). */
  readonly processes: SessionProcessControl;
  /** How the RPC surface is served: the coordinator's authentication (user token, session credentials), limits. */
  readonly transport: ExposeOptions;
  /** Where the session file of a session id is (the coordinator reads only its header, to know whose it is). */
  readonly sessionFile: (sessionId: string) => string;
  /** How many session processes may be starting at once (default 4); later starts wait their turn. */
  readonly maxConcurrentStarts?: number;
  /**
   * A session process with no presentation attached and no run (by its own report) for this long is stopped; its
   * record stays, and a resume starts it again. Default 0: never.
   */
  readonly idleStopMs?: number;
  /** The key that signs session credentials: given, the host serves `SessionEnrollment` (sessions run elsewhere). */
  readonly credentials?: SessionCredentials;
  /**
   * Given (with `credentials`), presentations may reach a session through this host's URL (`/sessions/<id>`):
   * where this machine's sessions are, and the CA the certificates of sessions elsewhere must chain to.
   */
  readonly gateway?: Pick<SessionGatewayOptions, 'localSession' | 'ca'>;
  /** Given, the host serves `SessionControl`: how it asks a session it did not start to stop. */
  readonly sessionControl?: SessionControlSide;
}

export interface CoordinatorHostError {
  readonly code: 'plugin_failed' | 'start_refused';
  readonly message: string;
  /** What a failing plugin threw (for `PI_DEBUG`'s stack and causes); never sent anywhere. */
  readonly cause?: unknown;
}

export interface CoordinatorHost {
  /** The RPC surface sessions and the user's programs connect to. */
  readonly rpc: RpcHost;
  /**
   * What a listener hands each socket to: the gateway for `/sessions/<id>` (when configured), the RPC surface for
   * everything else.
   */
  accept(socket: ServerSocket, request: IncomingMessage): void;
  /** Plugin callbacks that threw, latest last. */
  failures(): readonly OwnerMessage[];
  /** Closes connections and disposes every facet in reverse manifest order. Records and processes stay. */
  stop(): Promise<KernelStopReport>;
}

/**
 * The coordinator app host: runs the coordinator facets with scoped fleet authority (records and processes,
 * never the repository or a pid), serves what they provide plus the host's own SessionPresence, through which
 * each session tells the process manager it is ready (how many presentations it has, whether it is busy), and
 * stops the sessions idle for longer than `idleStopMs`.
 */
export async function startCoordinatorHost(
  options: CoordinatorHostOptions,
): Promise<Result<CoordinatorHost, CoordinatorHostError>> {
  const providing = new ProvidingSide();
  // A session may reconnect before its old connection is noticed gone: only its latest connection counts.
  const sessionConnections = new Map<string, string>();
  const connectedSessions = new Map<string, ConnectedSession>();
  // On records other replicas share, the addresses of the sessions connected here are kept there too, under this
  // process's id.
  const addresses = options.repo.shared?.addresses;
  const replicaId = randomUUID();
  const fleet = new Fleet(options.repo, options.processes, options.sessionFile, {
    ...(options.maxConcurrentStarts === undefined ? {} : { maxConcurrentStarts: options.maxConcurrentStarts }),
    ...(options.idleStopMs === undefined ? {} : { idleStopMs: options.idleStopMs }),
  });
  const running = await runFacets(
    options.facets,
    (scope, facet) =>
      Object.freeze({ ...providing.contextFor(scope, facet.id, facet.config), fleet: fleet.scopeFor(scope) }),
    (failure) => providing.failures.record(failure.pluginId, failure.message),
  );
  if (running.isErr()) {
    await fleet.close();
    return err(running.error);
  }
  providing.services.provide(SessionPresence, {
    // A session reports once it serves presentations (its socket and connection file are in place): only then is
    // it ready to attach to, which is what a start waits for.
    async report({ presentations, busy, url }, context) {
      const { sessionId, workspaceId } = requireSessionIdentity(context);
      // Where the gateway relays its presentations (any replica's, through shared records); forgotten when its
      // connection drops.
      const known = connectedSessions.get(sessionId);
      if (sessionConnections.has(sessionId) && (known === undefined || known.url !== url)) {
        connectedSessions.set(sessionId, { url });
        if (url !== undefined) void addresses?.set({ sessionId, workspaceId, url }, replicaId);
      }
      options.processes.connected(sessionId, context.telemetryContext);
      options.processes.presentations(sessionId, presentations);
      fleet.reported(sessionId, busy);
    },
  });
  if (options.credentials !== undefined)
    providing.services.provide(SessionEnrollment, sessionEnrollment(options.repo, options.credentials));
  if (options.sessionControl !== undefined) providing.services.provide(SessionControl, options.sessionControl.service);
  const plugins = options.facets.map(({ id, apiVersion }) => ({
    id,
    ...(apiVersion === undefined ? {} : { apiVersion }),
  }));
  const hello = { pluginApi: PLUGIN_API_VERSION, plugins };
  const rpc = providing.expose({ hello, ...options.transport });

  rpc.onClientConnect((clientId, caller) => {
    const sessionId = caller.claims['kind'] === 'session' ? caller.claims['sessionId'] : undefined;
    if (typeof sessionId !== 'string') return;
    sessionConnections.set(sessionId, clientId);
  });
  rpc.onClientDisconnect((clientId, caller) => {
    const sessionId = caller.claims['sessionId'];
    if (typeof sessionId !== 'string' || sessionConnections.get(sessionId) !== clientId) return;
    sessionConnections.delete(sessionId);
    if (connectedSessions.get(sessionId)?.url !== undefined) void addresses?.clear(sessionId, replicaId);
    connectedSessions.delete(sessionId);
    options.processes.disconnected(sessionId);
  });

  const route =
    options.gateway === undefined || options.credentials === undefined
      ? undefined
      : sessionGateway({
          ...options.gateway,
          authenticate: options.transport.authenticate,
          repo: options.repo,
          credentials: options.credentials,
          connected: (sessionId) => connectedSessions.get(sessionId),
          storedAddress: async (sessionId) => {
            const found = await addresses?.get(sessionId);
            return found?.isOk() === true ? found.value : undefined;
          },
        });

  // Presentations awaiting the gateway's check are bounded as the host's own unauthenticated sockets are.
  const admission = relayAdmission();
  let stopping: Promise<KernelStopReport> | undefined;
  return ok({
    rpc,
    accept(socket, request) {
      const sessionId = route === undefined ? undefined : gatewaySessionId(request);
      if (route === undefined || sessionId === undefined) return rpc.accept(socket, request);
      relayWebSocket(socket, route(sessionId), { admission });
    },
    failures: () => providing.failures.list(),
    stop: () =>
      (stopping ??= (async () => {
        rpc.close();
        const report = await running.value.stop();
        await fleet.close();
        return report;
      })()),
  });
}
