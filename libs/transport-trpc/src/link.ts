import { TRPCClientError, type TRPCLink } from '@trpc/client';
import type { AnyRouter } from '@trpc/server';
import { observable } from '@trpc/server/observable';
import superjson from 'superjson';
import type { RpcConnection } from './rpc-connection';
import type { ErrorShape } from './rpc-operation';
import { clientErrorShape } from './trpc-error-codes';

/** Operation context flag: keep this subscription across reconnects (service watches, interaction serving). */
export const PERSISTENT = 'piPersistent';

const CANCELLED: ErrorShape = clientErrorShape({ code: 'cancelled', message: 'The call was cancelled' });
const TIMED_OUT: ErrorShape = clientErrorShape({ code: 'timeout', message: 'The call timed out' });

/** An abort whose reason is a deadline (`AbortSignal.timeout`) timed out; any other was cancelled. */
function abortShape(signal: AbortSignal): ErrorShape {
  const reason: unknown = signal.reason;
  return reason instanceof Error && reason.name === 'TimeoutError' ? TIMED_OUT : CANCELLED;
}

/**
 * pi's terminating tRPC link: superjson on the way out and in, and each operation handed to the connection
 * at once. The stock wsLink waits on a timer before every send to batch; a call here costs one frame now.
 * The operation's signal is honoured here (tRPC leaves that to the link): an abort fails the operation at
 * once, without waiting for a server that may never answer, as `CLIENT_CLOSED_REQUEST` (`TIMEOUT` for a deadline).
 */
export function rpcLink(connection: Pick<RpcConnection, 'request'>): TRPCLink<AnyRouter> {
  return () =>
    ({ op }) =>
      observable((observer) => {
        const fail = (shape: ErrorShape) => observer.error(TRPCClientError.from({ error: deserializeShape(shape) }));
        const signal = op.signal ?? undefined;
        if (signal?.aborted) {
          fail(abortShape(signal));
          return () => undefined;
        }
        const end = connection.request(
          {
            type: op.type,
            path: op.path,
            input: superjson.serialize(op.input),
            persistent: op.context[PERSISTENT] === true,
          },
          {
            data: (data) => observer.next({ result: { type: 'data', data: superjson.deserialize(data as never) } }),
            started: () => observer.next({ result: { type: 'started' } }),
            error: fail,
            complete: () => observer.complete(),
          },
        );
        const onAbort = () => {
          end();
          if (signal !== undefined) fail(abortShape(signal));
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        return () => {
          signal?.removeEventListener('abort', onAbort);
          end();
        };
      });
}

/** The server serializes error shapes with the transformer too; shapes made locally are plain. */
function deserializeShape(shape: ErrorShape): ErrorShape {
  if (typeof shape === 'object' && shape !== null && 'json' in shape) return superjson.deserialize(shape as never);
  return shape;
}
