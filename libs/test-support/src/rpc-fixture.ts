import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InteractionBroker, ServiceRegistry, type EndpointLimits, type EndpointStats } from '@pi/remote';
import { recordFrames, type FrameLog } from './frame-log';
import {
  createRpcClient,
  createRpcHost,
  listenWebSocket,
  loopbackFactory,
  tokenAuthentication,
  webSocketFactory,
  type HostHello,
  type RpcClient,
  type RpcHost,
  type SocketFactory,
  type WebSocketListener,
  type WireSocket,
} from '@pi/transport-trpc';

export type TransportKind = 'loopback' | 'websocket';

/** Every RPC behaviour test runs once per entry, with the same body. */
export const TRANSPORTS: readonly TransportKind[] = ['loopback', 'websocket'];

export const FIXTURE_TOKEN = 'fixture-token-7c1d';

export type { FrameLog } from './frame-log';

export interface RpcFixture {
  readonly kind: TransportKind;
  readonly registry: ServiceRegistry;
  readonly broker: InteractionBroker;
  readonly host: RpcHost;
  readonly frames: FrameLog;
  /** The Unix socket a `websocket` fixture listens on (for clients that connect by address); undefined for loopback. */
  readonly socketPath: string | undefined;
  /** Opens a client; `token` defaults to the fixture's valid one. Clients are closed with the fixture. */
  connect(options?: {
    token?: string;
    reconnect?: false | { minDelayMs: number; maxDelayMs: number };
  }): Promise<RpcClient>;
  /** Opens a client without waiting for it to connect. */
  open(options?: { token?: string }): RpcClient;
  /** Drops every connection from the server side, as a network failure would. */
  dropConnections(): void;
  stats(): EndpointStats[];
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

export interface RpcFixtureOptions {
  readonly limits?: Partial<EndpointLimits>;
  readonly maxPayload?: number;
  /** Register services before the host's router is generated. */
  readonly provide?: (registry: ServiceRegistry) => void;
  /** What the host's hello answer says it runs (a session's plugin API and plugins). */
  readonly hello?: HostHello;
}

/** A providing host with the given services, served over one transport, plus clients that record their frames. */
export async function startRpcFixture(kind: TransportKind, options: RpcFixtureOptions = {}): Promise<RpcFixture> {
  const registry = new ServiceRegistry();
  options.provide?.(registry);
  const broker = new InteractionBroker();
  const host = createRpcHost({
    registry,
    broker,
    authenticate: tokenAuthentication(FIXTURE_TOKEN, { principal: 'fixture-user', claims: { workspaceId: 'w1' } }),
    limits: options.limits,
    keepAlive: false,
    ...(options.hello === undefined ? {} : { hello: options.hello }),
  });
  const frames: FrameLog = { sent: [], received: [] };
  const clients = new Set<RpcClient>();
  const sockets = new Set<WireSocket>();
  let listener: WebSocketListener | undefined;
  let directory: string | undefined;
  let factory: SocketFactory;
  if (kind === 'loopback') {
    factory = loopbackFactory(host, { maxPayload: options.maxPayload });
  } else {
    directory = await mkdtemp(join(tmpdir(), 'pi-rpc-'));
    const listened = await listenWebSocket(
      host,
      { socketPath: join(directory, 'rpc.sock') },
      { maxPayload: options.maxPayload },
    );
    if (listened.isErr()) throw new Error(listened.error.message);
    listener = listened.value;
    factory = webSocketFactory({ socketPath: join(directory, 'rpc.sock') });
  }
  const recording: SocketFactory = () => {
    const socket = recordFrames(factory(), frames);
    sockets.add(socket);
    socket.onClose(() => sockets.delete(socket));
    return socket;
  };
  const open = (token = FIXTURE_TOKEN, reconnect?: false | { minDelayMs: number; maxDelayMs: number }) => {
    const client = createRpcClient({
      socketFactory: recording,
      connectionParams: { token },
      reconnect: reconnect ?? { minDelayMs: 10, maxDelayMs: 50 },
    });
    clients.add(client);
    return client;
  };
  const close = async () => {
    for (const client of clients) client.close();
    clients.clear();
    host.close();
    await listener?.close();
    if (directory !== undefined) await rm(directory, { recursive: true, force: true });
  };
  return {
    kind,
    registry,
    broker,
    host,
    frames,
    socketPath: directory === undefined ? undefined : join(directory, 'rpc.sock'),
    async connect(connectOptions = {}) {
      const client = open(connectOptions.token, connectOptions.reconnect);
      await client.whenConnected();
      return client;
    },
    open: (openOptions = {}) => open(openOptions.token),
    dropConnections() {
      for (const socket of [...sockets]) socket.close(4000, 'dropped by test');
    },
    stats: () => host.stats(),
    close,
    [Symbol.asyncDispose]: close,
  };
}
