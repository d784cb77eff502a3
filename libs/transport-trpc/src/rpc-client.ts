import { BACKGROUND_CONTEXT, type Context } from '@pi/context';
import {
  InteractionHandlers,
  checkJson,
  RemoteConsumer,
  RemoteError,
  type CallResponse,
  type ConnectionState,
  type HostDescription,
  type Interaction,
  type JsonValue,
  type Lease,
  type RemoteService,
  type RemoteState,
  type WatchObserver,
} from '@pi/remote';
import type { HeartbeatWindow } from './heartbeat';
import type { HelloAnswer } from './hello';
import { RpcConnection, type RpcConnectionOptions } from './rpc-connection';
import { TrpcChannel } from './trpc-channel';

/** The consuming end of one connection: typed proxies, interaction handlers and the connection's state. */
export interface RpcClient {
  readonly connection: RemoteState<ConnectionState>;
  /** How long the host may stay silent before the connection is declared dead; `false` when not watched. */
  readonly heartbeat: HeartbeatWindow | false;
  /** What the host said at the last hello: its protocol, plugin API and plugins (undefined before a connection). */
  readonly host: HelloAnswer | undefined;
  /** A shared typed proxy, held until `close`. */
  use<T>(token: RemoteService<T>, context?: Context): Promise<T>;
  /** A shared typed proxy with its own release, for consumers that come and go. */
  acquire<T>(token: RemoteService<T>, context?: Context): Promise<Lease<T>>;
  handle<Request, Response>(
    interaction: Interaction<Request, Response>,
    handler: (request: Request, context: Context) => Promise<Response>,
  ): () => void;
  /** What the host serves (`$rpc.describe`): its services with their JSON Schemas, and its interactions. */
  describe(context?: Context): Promise<HostDescription>;
  /**
   * Calls a method by name, with JSON arguments the host checks against its contract; resolves with `{ value }`,
   * `{}` for void, or `{ ref }` for a remote result. For generic tools: `use` gives typed proxies.
   */
  invoke(service: string, method: string, args: readonly JsonValue[], context?: Context): Promise<CallResponse>;
  /**
   * The raw watch frames of a service by name: a snapshot, then each change and event; after a reconnect, a fresh
   * snapshot. `observer.error` ends it for good (for example `unknown_service`). Returns the stop function.
   */
  watchFrames(service: string, observer: WatchObserver): () => void;
  /** Resolves once connected; rejects when the connection is refused or closed for good. */
  whenConnected(): Promise<void>;
  /** Services with a live subscription, for tests. */
  readonly activeServices: number;
  close(): void;
}

export function createRpcClient(options: RpcConnectionOptions): RpcClient {
  const connection = new RpcConnection(options);
  const channel = new TrpcChannel(connection);
  const consumer = new RemoteConsumer(channel);
  const interactions = new InteractionHandlers(channel);
  // `use` holds one lease per token until close, however often it is called.
  const leases = new Map<string, Promise<Lease<unknown>>>();

  return {
    connection: connection.connection,
    heartbeat: connection.heartbeat,
    get host() {
      return connection.host;
    },
    async use(token, context = BACKGROUND_CONTEXT) {
      let lease = leases.get(token.id);
      if (lease === undefined) {
        lease = consumer.acquire(token, context) as Promise<Lease<unknown>>;
        leases.set(token.id, lease);
        lease.catch(() => leases.delete(token.id));
      }
      return (await lease).service as never;
    },
    acquire: (token, context = BACKGROUND_CONTEXT) => consumer.acquire(token, context),
    handle: (interaction, handler) => interactions.handle(interaction, handler),
    describe: (context = BACKGROUND_CONTEXT) => channel.describe(context.abortSignal),
    invoke: (service, method, args, context = BACKGROUND_CONTEXT) => invoke(channel, service, method, args, context),
    watchFrames: (service, observer) => channel.watch({ service }, observer),
    whenConnected: () => whenConnected(connection.connection),
    get activeServices() {
      return consumer.activeServices;
    },
    close() {
      for (const lease of leases.values())
        void lease.then(
          (held) => held.release(),
          () => undefined,
        );
      leases.clear();
      interactions.close();
      consumer.releaseAll();
      connection.close();
    },
  };
}

/** A call by name: strict JSON arguments only (they go on the wire without a walk), under a client span. */
async function invoke(
  channel: TrpcChannel,
  service: string,
  member: string,
  args: readonly JsonValue[],
  context: Context,
): Promise<CallResponse> {
  const checked = checkJson(args, '$.args');
  if (checked.isErr()) {
    const { kind, path } = checked.error;
    throw new RemoteError('invalid_argument', `Not JSON at ${path}: ${kind}`, { reason: 'not_json', kind, path });
  }
  if (context.abortSignal?.aborted) throw new RemoteError('cancelled', 'The call was cancelled before it was sent');
  return context.telemetryContext.startSpan({ name: `rpc.client ${service}.${member}`, kind: 'client' }, (span) =>
    channel.call({ target: { service }, member, args, trace: span.inject() }, context.abortSignal),
  );
}

function whenConnected(state: RemoteState<ConnectionState>): Promise<void> {
  return new Promise((resolve, reject) => {
    let done = false;
    // The first report comes during subscribe, before `stop` exists; stopping waits for a microtask.
    const stop = state.subscribe((value) => {
      if (done) return;
      if (value.status === 'connected') resolve();
      else if (value.status === 'disconnected' && !value.retrying) reject(RemoteError.fromEnvelope(value.reason));
      else return;
      done = true;
      queueMicrotask(() => stop());
    });
  });
}
