import { BACKGROUND_CONTEXT, type Context } from '@pi/context';
import { RemoteError, type CallResponse, type HostDescription, type JsonValue, type WatchObserver } from '@pi/remote';
import type { RpcClient } from '@pi/transport-trpc';
import { checkArity, findMethod, findService } from './generic-calls';

/** The running session `connect` found from its connection file (never its token). */
export interface FoundSession {
  readonly sessionId: string;
  readonly cwd: string;
  readonly pid: number;
  readonly socketPath: string;
  readonly url: string | null;
  readonly connectionFile: string;
}

/**
 * A client of one pi host, for internal tools and scripts: typed proxies (`use`, `acquire`), interaction handlers
 * (`handle`), the connection's state, and `close`; and, for generic tools such as the `pi` CLI, the host's
 * description and calls and watches by name, checked against it.
 */
export interface PiClient extends Pick<RpcClient, 'use' | 'acquire' | 'handle' | 'connection' | 'heartbeat' | 'close'> {
  /** The session found through its connection file; null when connected to an address given outright. */
  readonly session: FoundSession | null;
  /** What the host serves: services, methods, state and events with their JSON Schemas, and interactions. */
  describe(context?: Context): Promise<HostDescription>;
  /**
   * Calls `service.method` by name. Rejects with `unknown_service` / `unknown_member` (naming what exists) or
   * `invalid_argument` (wrong count) before sending; the host checks the values. Resolves with `{ value }`, `{}`
   * for a void result, or `{ ref }` for a remote reference (held until the client closes).
   */
  call(service: string, method: string, args: readonly JsonValue[], context?: Context): Promise<CallResponse>;
  /**
   * Watches a service by name: its state snapshot, then every change and event, and a fresh snapshot after each
   * reconnect. Rejects with `unknown_service` (naming what exists); resolves with the stop function.
   */
  watch(service: string, observer: WatchObserver): Promise<() => void>;
}

/**
 * The library's client over a transport client. The description is asked once per connection (a reconnect may
 * reach a restarted host), shared by every caller, none of whose cancellation ends it for the others.
 */
export function piClient(client: RpcClient, session: FoundSession | null): PiClient {
  let description: { epoch: number; answer: Promise<HostDescription> } | undefined;
  const describe = (context: Context = BACKGROUND_CONTEXT) => {
    const state = client.connection.value;
    const epoch = state.status === 'connected' ? state.epoch : -1;
    if (description === undefined || description.epoch !== epoch) {
      const answer = client.describe();
      description = { epoch, answer };
      // A failed answer is not kept: the next caller asks again.
      answer.catch(() => {
        if (description?.answer === answer) description = undefined;
      });
    }
    return untilAborted(description.answer, context.abortSignal);
  };
  return {
    session,
    use: (token, context) => client.use(token, context),
    acquire: (token, context) => client.acquire(token, context),
    handle: (interaction, handler) => client.handle(interaction, handler),
    connection: client.connection,
    heartbeat: client.heartbeat,
    close: () => client.close(),
    describe,
    async call(service, method, args, context = BACKGROUND_CONTEXT) {
      const spec = findMethod(await describe(context), service, method);
      if (spec.isErr()) throw spec.error;
      const arity = checkArity(service, method, spec.value, args);
      if (arity.isErr()) throw arity.error;
      return client.invoke(service, method, args, context);
    },
    async watch(service, observer) {
      const found = findService(await describe(), service);
      if (found.isErr()) throw found.error;
      return client.watchFrames(service, observer);
    },
  };
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(new RemoteError('cancelled', 'The call was cancelled'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new RemoteError('cancelled', 'The call was cancelled'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
