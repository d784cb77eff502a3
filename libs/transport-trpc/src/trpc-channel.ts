import {
  RemoteError,
  hostDescriptionSchema,
  isRemoteErrorEnvelope,
  type CallRequest,
  type HostDescription,
  type CallResponse,
  type InteractionFrame,
  type InteractionReply,
  type RemoteChannel,
  type Target,
  type WatchFrame,
  type WatchObserver,
} from '@pi/remote';
import superjson from 'superjson';
import { compactOutcome } from './compact-calls';
import type { RpcConnection } from './rpc-connection';
import type { ErrorShape, OperationHandlers } from './rpc-operation';

/**
 * The remote layer's channel over a tRPC client: services by path (`<service>.<method>`, `<service>.$watch`),
 * references and cancellation through `$rpc`. Every failure arrives as a RemoteError with a stable code.
 */
export class TrpcChannel implements RemoteChannel {
  readonly #connection: RpcConnection;
  #nextCall = 0;

  constructor(connection: RpcConnection) {
    this.#connection = connection;
  }

  get connection() {
    return this.#connection.connection;
  }

  /**
   * Not async: the reply's promise is the caller's, with no promise of this method's own around it. A service call
   * goes as a compact call when the host reads them (compact-calls.ts), anything else as a tRPC mutation.
   */
  call(request: CallRequest, signal: AbortSignal | undefined): Promise<CallResponse> {
    if (signal?.aborted)
      return Promise.reject(new RemoteError('cancelled', 'The call was cancelled before it was sent'));
    const c = `${++this.#nextCall}`;
    const { target } = request;
    // Only a call with a signal can be cancelled, so only it needs to know how to tell the server.
    const onAbort =
      signal === undefined
        ? undefined
        : () => void this.#mutate('$rpc.cancel', { c }, undefined).catch(() => undefined);
    if ('service' in target && this.#connection.compactCalls) {
      return new Promise<unknown>((resolve, reject) => {
        const pending = new PendingCall(resolve, reject, signal, onAbort);
        const path = `${target.service}.${request.member}`;
        pending.end = this.#connection.call(path, request.args, c, request.trace, pending);
        signal?.addEventListener('abort', pending, { once: true });
      }) as Promise<CallResponse>;
    }
    const [path, input] =
      'service' in target
        ? [`${target.service}.${request.member}`, { a: request.args, c, t: request.trace }]
        : ['$rpc.invoke', { r: target.ref, m: request.member, a: request.args, c, t: request.trace }];
    return this.#mutate(path, input, signal, onAbort) as Promise<CallResponse>;
  }

  /**
   * The call path, straight onto the connection: one frame out, one frame back. Arguments passed the strict-JSON
   * guard already, so they are valid superjson as `{ json }` without a walk; aborting rejects at once and runs
   * `onAbort` (which tells the server).
   */
  #mutate(path: string, input: unknown, signal: AbortSignal | undefined, onAbort?: () => void): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const pending = new PendingCall(resolve, reject, signal, onAbort);
      pending.end = this.#connection.request(
        { type: 'mutation', path, input: { json: input }, persistent: false },
        pending,
      );
      signal?.addEventListener('abort', pending, { once: true });
    });
  }

  watch(target: Target, observer: WatchObserver): () => void {
    const [path, input, persistent] =
      'service' in target ? [`${target.service}.$watch`, undefined, true] : ['$rpc.watch', { r: target.ref }, false];
    return this.#subscribe(
      path,
      input,
      persistent,
      (frame) => observer.next(frame as WatchFrame),
      (shape) => observer.error(shapeToRemoteError(shape).toEnvelope()),
    );
  }

  /**
   * A subscription, straight onto the connection as calls are: every frame of a fan-out passes here, and tRPC's
   * client would add an observable pipeline and a superjson walk to each.
   */
  #subscribe(
    path: string,
    input: unknown,
    persistent: boolean,
    onData: (data: unknown) => void,
    onError: (shape: ErrorShape) => void,
  ): () => void {
    return this.#connection.request(
      { type: 'subscription', path, input: { json: input }, persistent },
      { data: (data) => onData(fromSuperjson(data)), error: onError, complete: () => undefined },
    );
  }

  /** The host's description (`$rpc.describe`), checked against the description schema. */
  async describe(signal: AbortSignal | undefined): Promise<HostDescription> {
    const answer = await this.#mutate('$rpc.describe', undefined, signal);
    const parsed = hostDescriptionSchema.safeParse(answer);
    if (!parsed.success) throw new RemoteError('invalid_result', 'The host sent a malformed description');
    return parsed.data;
  }

  async release(ref: string): Promise<void> {
    await this.#mutate('$rpc.release', { r: ref }, undefined);
  }

  serveInteractions(ids: readonly string[], onFrame: (frame: InteractionFrame) => void): () => void {
    return this.#subscribe(
      '$rpc.interactions',
      { ids: [...ids] },
      true,
      (frame) => onFrame(frame as InteractionFrame),
      () => undefined,
    );
  }

  async reply(reply: InteractionReply): Promise<void> {
    await this.#mutate('$rpc.reply', reply, undefined);
  }
}

/** A superjson payload without `meta` is plain JSON already (our values always are): skip the walk. */
function fromSuperjson(data: unknown): unknown {
  if (typeof data === 'object' && data !== null && 'json' in data && !('meta' in data))
    return (data as { json: unknown }).json;
  return superjson.deserialize(data as never);
}

/** An error frame's shape as a RemoteError; only an envelope the server formatted is trusted as such. */
export function shapeToRemoteError(shape: ErrorShape): RemoteError {
  const plain =
    typeof shape === 'object' && shape !== null && 'json' in shape ? (fromSuperjson(shape) as ErrorShape) : shape;
  const remote = plain?.data?.remote;
  return isRemoteErrorEnvelope(remote)
    ? RemoteError.fromEnvelope(remote)
    : new RemoteError('internal', 'Unexpected transport error');
}

const nothing = (): void => undefined;

/**
 * One call awaiting its reply: the connection's handlers and the signal's abort listener in one object, so a call
 * allocates no closures (each would also be named at run time in a `keepNames` build).
 */
class PendingCall implements OperationHandlers {
  end: () => void = nothing;
  #settled = false;
  readonly #resolve: (value: unknown) => void;
  readonly #reject: (error: RemoteError) => void;
  readonly #signal: AbortSignal | undefined;
  readonly #onAbort: (() => void) | undefined;

  constructor(
    resolve: (value: unknown) => void,
    reject: (error: RemoteError) => void,
    signal: AbortSignal | undefined,
    onAbort: (() => void) | undefined,
  ) {
    this.#resolve = resolve;
    this.#reject = reject;
    this.#signal = signal;
    this.#onAbort = onAbort;
  }

  data(data: unknown): void {
    this.#settle();
    this.#resolve(fromSuperjson(data));
  }

  error(shape: ErrorShape): void {
    this.#settle();
    this.#reject(shapeToRemoteError(shape));
  }

  answered(reply: readonly unknown[]): void {
    this.#settle();
    const outcome = compactOutcome(reply);
    if (outcome instanceof RemoteError) this.#reject(outcome);
    else this.#resolve(outcome);
  }

  complete(): void {
    // A call ends with its one data or error frame; nothing follows it.
  }

  /** The signal aborted: fail at once, stop waiting, and tell the server (`onAbort`). */
  handleEvent(): void {
    if (this.#settled) return;
    this.#settled = true;
    this.end();
    this.#onAbort?.();
    this.#reject(new RemoteError('cancelled', 'The call was cancelled'));
  }

  #settle(): void {
    this.#settled = true;
    this.#signal?.removeEventListener('abort', this);
  }
}
