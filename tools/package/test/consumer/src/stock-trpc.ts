import { TRPCClientError, createTRPCClient, createWSClient, wsLink } from '@trpc/client';
import type { SessionRouter } from '@pi/client';
import superjson from 'superjson';
import WebSocket from 'ws';

// A tool written with the stock tRPC client alone, typed by the packed SessionRouter:
// `PI_SOCKET=… PI_TOKEN=… node dist/stock-trpc.js` prints what it saw as JSON.
const socketPath = process.env['PI_SOCKET'] ?? '';
const token = process.env['PI_TOKEN'] ?? '';

/** tRPC's documented narrowing: the error's `data` is then typed by the router (pi's code in `data.remote`). */
function isTRPCClientError(cause: unknown): cause is TRPCClientError<SessionRouter> {
  return cause instanceof TRPCClientError;
}

const wsClient = createWSClient({
  url: `ws+unix://${socketPath}:/`,
  WebSocket: WebSocket as never,
  connectionParams: { token },
});
const client = createTRPCClient<SessionRouter>({ links: [wsLink({ client: wsClient, transformer: superjson })] });

/** Runs a call that should fail with `expected`; anything else is thrown, as a tool would let it. */
async function expectFailure(expected: string, call: () => Promise<unknown>) {
  try {
    await call();
    return 'succeeded';
  } catch (cause) {
    if (isTRPCClientError(cause) && cause.data?.code === expected) {
      return { code: cause.data.code, httpStatus: cause.data.httpStatus, remote: cause.data.remote.code };
    }
    throw cause;
  }
}

const description = await client.$rpc.describe.mutate();
const info = await client.chat.info.mutate({ a: [], c: 'info-1' });
const notFound = await expectFailure('NOT_FOUND', () =>
  client.chat.requestAbort.mutate({ a: ['no-such-operation'], c: 'abort-1' }),
);
const badRequest = await expectFailure('BAD_REQUEST', () =>
  // A model reference must be an object: what an untyped caller might send.
  client.models.select.mutate({ a: ['echo' as never], c: 'select-1' }),
);
console.log(
  JSON.stringify({
    services: description.services.map((service) => service.id),
    info: typeof info.value,
    notFound,
    badRequest,
  }),
);
await wsClient.close();
