import { createTRPCUntypedClient, type TRPCClientError, type TRPCUntypedClient } from '@trpc/client';
import type { AnyRouter } from '@trpc/server';
import {
  RemoteError,
  isRemoteErrorEnvelope,
  type CallRequest,
  type CallResponse,
  type InteractionFrame,
  type InteractionReply,
  type RemoteChannel,
  type RemoteErrorEnvelope,
  type Target,
  type WatchFrame,
  type WatchObserver,
} from '@pi/remote';
import { PERSISTENT, rpcLink } from './link';
import type { RpcConnection } from './rpc-connection';

/**
 * The remote layer's channel over a tRPC client: services by path (`<service>.<method>`, `<service>.$watch`),
 * references and cancellation through `$rpc`. Every failure arrives as a RemoteError with a stable code.
 */
export class TrpcChannel implements RemoteChannel {
  readonly #connection: RpcConnection;
  readonly #client: TRPCUntypedClient<AnyRouter>;
  #nextCall = 0;

  constructor(connection: RpcConnection) {
    this.#connection = connection;
    this.#client = createTRPCUntypedClient({ links: [rpcLink(connection)] });
  }

  get connection() {
    return this.#connection.connection;
  }

  async call(request: CallRequest, signal: AbortSignal | undefined): Promise<CallResponse> {
    if (signal?.aborted) throw new RemoteError('cancelled', 'The call was cancelled before it was sent');
    const c = `${++this.#nextCall}`;
    const [path, input] =
      'service' in request.target
        ? [`${request.target.service}.${request.member}`, { a: request.args, c, t: request.trace }]
        : ['$rpc.invoke', { r: request.target.ref, m: request.member, a: request.args, c, t: request.trace }];
    // Aborting tells the server to abort this call's context; the local promise rejects at once either way.
    const onAbort = () => void this.#client.mutation('$rpc.cancel', { c }).catch(() => undefined);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return (await this.#client.mutation(path, input, { signal })) as CallResponse;
    } catch (error) {
      if (signal?.aborted) throw new RemoteError('cancelled', 'The call was cancelled');
      throw toRemoteError(error);
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  watch(target: Target, observer: WatchObserver): () => void {
    const [path, input, persistent] =
      'service' in target ? [`${target.service}.$watch`, undefined, true] : ['$rpc.watch', { r: target.ref }, false];
    const subscription = this.#client.subscription(path, input, {
      context: { [PERSISTENT]: persistent },
      onData: (frame) => observer.next(frame as WatchFrame),
      onError: (error) => observer.error(toRemoteError(error).toEnvelope()),
    });
    return () => subscription.unsubscribe();
  }

  async release(ref: string): Promise<void> {
    try {
      await this.#client.mutation('$rpc.release', { r: ref });
    } catch (error) {
      throw toRemoteError(error);
    }
  }

  serveInteractions(ids: readonly string[], onFrame: (frame: InteractionFrame) => void): () => void {
    const subscription = this.#client.subscription('$rpc.interactions', { ids: [...ids] }, {
      context: { [PERSISTENT]: true },
      onData: (frame) => onFrame(frame as InteractionFrame),
      onError: () => undefined,
    });
    return () => subscription.unsubscribe();
  }

  async reply(reply: InteractionReply): Promise<void> {
    try {
      await this.#client.mutation('$rpc.reply', reply);
    } catch (error) {
      throw toRemoteError(error);
    }
  }
}

/** A tRPC client error as our envelope; only an envelope the server formatted is trusted as such. */
export function toRemoteError(error: unknown): RemoteError {
  const remote = (error as TRPCClientError<AnyRouter>)?.data?.remote as RemoteErrorEnvelope | undefined;
  if (isRemoteErrorEnvelope(remote)) return RemoteError.fromEnvelope(remote);
  return new RemoteError('internal', 'Unexpected transport error');
}
