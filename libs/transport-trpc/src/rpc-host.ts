import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { TRPCError, type AnyRouter } from '@trpc/server';
import { BACKGROUND_CONTEXT, withContextValue } from '@pi/context';
import {
  CALLER_IDENTITY,
  CLIENT_ID,
  type CallerIdentity,
  ConnectionEndpoint,
  type EndpointLimits,
  hostDescriber,
  type EndpointStats,
  type HostDescription,
  type InteractionBroker,
  runListener,
  type ServiceRegistry,
} from '@pi/remote';
import type { Authenticate } from './authentication';
import type { ConnectionLimits } from './connection-limits';
import {
  DEFAULT_FLOW_CONTROL,
  OutboundPressure,
  type FlowControlLimits,
  type OutboundStats,
} from './outbound-pressure';
import type { HostHello } from './hello';
import { createHostProcedures } from './router';
import type { ServerSocket } from './server-socket';
import { CLOSE_CODES, NOT_AUTHORIZED_REASON } from './wire-socket';
import type { HostRequestContext } from './trpc';
import { createWireServer } from './wire-server';

export interface RpcHostOptions {
  readonly registry: ServiceRegistry;
  readonly authenticate: Authenticate;
  readonly broker?: InteractionBroker;
  readonly limits?: Partial<EndpointLimits>;
  /** Ping a quiet client after `pingMs` and drop it if no message comes within `pongWaitMs`. */
  readonly keepAlive?: { readonly pingMs: number; readonly pongWaitMs: number } | false;
  /** When a connection's watch frames are held back, coalesced and dropped with a gap (`DEFAULT_FLOW_CONTROL`). */
  readonly flowControl?: Partial<FlowControlLimits>;
  /**
   * How long a socket may take to authenticate, how many may be waiting to, and how many requests a connection starts
   * before the others get their turn (`DEFAULT_CONNECTION_LIMITS`).
   */
  readonly connections?: Partial<ConnectionLimits>;
  /** What the hello answer says the host runs (its plugin API and plugins); absent: only the protocol. */
  readonly hello?: HostHello;
}

export type ConnectionListener = (clientId: string, caller: CallerIdentity) => void;

export const DEFAULT_KEEP_ALIVE = { pingMs: 30_000, pongWaitMs: 10_000 };

const SOCKET_OPEN = 1;
const HOST_CLOSED = 'The host is closed';

export interface RpcHost {
  readonly router: AnyRouter;
  /** What `$rpc.describe` answers: the services this host serves and the interactions it may request. */
  describe(): HostDescription;
  /** Serves one accepted socket until it closes. */
  accept(socket: ServerSocket, request: IncomingMessage): void;
  /** What each open connection holds, for tests and diagnostics. */
  stats(): EndpointStats[];
  /** What each open connection holds on its way out: socket buffer and held watch frames. */
  outboundStats(): OutboundStats[];
  /** The listener hears each connection's id and the identity its credential was authenticated as. */
  onClientConnect(listener: ConnectionListener): () => void;
  onClientDisconnect(listener: ConnectionListener): () => void;
  /** Ends every connection (its calls, watches and references, then its socket) and refuses new ones. */
  close(): void;
}

/**
 * A providing host's RPC surface over tRPC: one router generated from the registry, and per connection an
 * endpoint built once from the authenticated identity, closed when the socket closes.
 */
export function createRpcHost(options: RpcHostOptions): RpcHost {
  // The services are fixed here: the router and its description cover the same ones.
  const serviceIds = options.registry.exposedIds();
  const describe = hostDescriber(options.registry, serviceIds, () => options.broker?.interactions() ?? []);
  const { router, table } = createHostProcedures(options.registry, serviceIds, describe, options.hello);
  const endpoints = new Set<ConnectionEndpoint>();
  const connectListeners = new Set<ConnectionListener>();
  const disconnectListeners = new Set<ConnectionListener>();
  const sockets = new Set<ServerSocket>();
  const flowControl = { ...DEFAULT_FLOW_CONTROL, ...options.flowControl };
  const pressures = new Map<ServerSocket, OutboundPressure>();
  let closed = false;

  const createContext = async (
    res: ServerSocket,
    connectionParams: Record<string, string> | null,
  ): Promise<HostRequestContext> => {
    const identity = await options.authenticate(connectionParams);
    if (identity.isErr()) {
      // The wire server answers this throw with the refusal frame, then closes with no code (1005), which a client
      // cannot tell from a drop. This close is queued before the server's, so it runs after the frame, and first.
      setImmediate(() => res.close(CLOSE_CODES.notAuthorized, NOT_AUTHORIZED_REASON));
      throw new TRPCError({ code: 'UNAUTHORIZED', message: identity.error });
    }
    // The socket may have closed while authentication awaited: its close event is gone, so never open an endpoint.
    if (res.readyState !== SOCKET_OPEN)
      throw new TRPCError({ code: 'CLIENT_CLOSED_REQUEST', message: 'The client went away' });
    const clientId = randomUUID();
    const connectionContext = withContextValue(
      CALLER_IDENTITY,
      identity.value,
      withContextValue(CLIENT_ID, clientId, BACKGROUND_CONTEXT),
    );
    const endpoint = new ConnectionEndpoint({
      registry: options.registry,
      clientId,
      connectionContext,
      broker: options.broker,
      limits: options.limits,
    });
    endpoints.add(endpoint);
    res.once('close', () => {
      endpoints.delete(endpoint);
      endpoint.close();
      notify(disconnectListeners, clientId, identity.value);
    });
    notify(connectListeners, clientId, identity.value);
    const pressure = pressures.get(res) ?? new OutboundPressure(res, flowControl);
    pressure.clientId = clientId;
    return { endpoint, pressure };
  };

  const handler = createWireServer({
    router,
    procedures: table,
    createContext,
    keepAlive: options.keepAlive === false ? undefined : (options.keepAlive ?? DEFAULT_KEEP_ALIVE),
    connections: options.connections,
  });

  return {
    router,
    describe,
    accept(socket, request) {
      if (closed) return socket.close(CLOSE_CODES.goingAway, HOST_CLOSED);
      sockets.add(socket);
      pressures.set(socket, new OutboundPressure(socket, flowControl));
      socket.once('close', () => {
        sockets.delete(socket);
        pressures.get(socket)?.close();
        pressures.delete(socket);
      });
      handler(socket, request);
    },
    stats: () => [...endpoints].map((endpoint) => endpoint.stats),
    outboundStats: () => [...pressures.values()].map((pressure) => pressure.stats()),
    onClientConnect(listener) {
      connectListeners.add(listener);
      return () => connectListeners.delete(listener);
    },
    onClientDisconnect(listener) {
      disconnectListeners.add(listener);
      return () => disconnectListeners.delete(listener);
    },
    close() {
      closed = true;
      for (const endpoint of [...endpoints]) endpoint.close();
      // Without this a client would hold a live socket to closed endpoints, and never learn to reconnect.
      for (const socket of [...sockets]) socket.close(CLOSE_CODES.goingAway, HOST_CLOSED);
    },
  };
}

/** Connection listeners are the host's plugins' code: one that throws must not refuse a client or end the process. */
function notify(listeners: ReadonlySet<ConnectionListener>, clientId: string, caller: CallerIdentity): void {
  for (const listener of [...listeners]) runListener(() => listener(clientId, caller), 'A connection listener threw');
}
