import { TRPCClientError, type TRPCLink } from '@trpc/client';
import type { AnyRouter } from '@trpc/server';
import { observable } from '@trpc/server/observable';
import superjson from 'superjson';
import type { ErrorShape, RpcConnection } from './rpc-connection';

/** Operation context flag: keep this subscription across reconnects (service watches, interaction serving). */
export const PERSISTENT = 'piPersistent';

/**
 * pi's terminating tRPC link: superjson on the way out and in, and each operation handed to the connection
 * at once. The stock wsLink waits on a timer before every send to batch; a call here costs one frame now.
 */
export function rpcLink(connection: RpcConnection): TRPCLink<AnyRouter> {
  return () =>
    ({ op }) =>
      observable((observer) =>
        connection.request(
          { type: op.type, path: op.path, input: superjson.serialize(op.input), persistent: op.context[PERSISTENT] === true },
          {
            data: (data) => observer.next({ result: { type: 'data', data: superjson.deserialize(data as never) } }),
            started: () => observer.next({ result: { type: 'started' } }),
            error: (shape) => observer.error(TRPCClientError.from({ error: deserializeShape(shape) })),
            complete: () => observer.complete(),
          },
        ),
      );
}

/** The server serializes error shapes with the transformer too; shapes made locally are plain. */
function deserializeShape(shape: ErrorShape): ErrorShape {
  if (typeof shape === 'object' && shape !== null && 'json' in shape) return superjson.deserialize(shape as never);
  return shape;
}
