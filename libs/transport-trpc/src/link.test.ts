import { TRPCClientError, createTRPCUntypedClient } from '@trpc/client';
import superjson from 'superjson';
import { describe, expect, it } from 'vitest';
import { PERSISTENT, rpcLink } from './link';
import type { RpcConnection } from './rpc-connection';
import type { Operation, OperationHandlers } from './rpc-operation';

/** The connection as the link sees it: each request recorded with its handlers, so the test answers it. */
function stubConnection() {
  const requests: Array<{ op: Operation; handlers: OperationHandlers; ended: boolean }> = [];
  const connection: Pick<RpcConnection, 'request'> = {
    request(op, handlers) {
      const request = { op, handlers, ended: false };
      requests.push(request);
      return () => {
        request.ended = true;
      };
    },
  };
  return { requests, client: createTRPCUntypedClient({ links: [rpcLink(connection)] }) };
}

function only<T>(items: readonly T[]): T {
  expect(items).toHaveLength(1);
  return items[0] as T;
}

describe('rpcLink', () => {
  it('hands an operation to the connection synchronously, with superjson input', () => {
    const { requests, client } = stubConnection();
    void client.mutation('probe.echo', { at: new Date(0), list: [1] }).catch(() => undefined);
    const { op } = only(requests);
    expect(op).toEqual({
      type: 'mutation',
      path: 'probe.echo',
      input: superjson.serialize({ at: new Date(0), list: [1] }),
      persistent: false,
    });
  });

  it('resolves with the deserialized result', async () => {
    const { requests, client } = stubConnection();
    const result = client.mutation('probe.echo', null);
    const { handlers } = only(requests);
    handlers.data(superjson.serialize({ value: [1, 'two'] }));
    handlers.complete();
    expect(await result).toEqual({ value: [1, 'two'] });
  });

  it.each([
    ['as the server sends it (transformed)', (shape: object) => superjson.serialize(shape)],
    ['as the connection makes it (plain)', (shape: object) => shape],
  ])('rejects with a TRPCClientError carrying the envelope, %s', async (_label, encode) => {
    const { requests, client } = stubConnection();
    const result = client.mutation('probe.fail', null);
    const remote = { code: 'disconnected', message: 'Gone' };
    only(requests).handlers.error(encode({ code: -32000, message: 'Gone', data: { remote } }) as never);
    const error = await result.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TRPCClientError);
    expect((error as TRPCClientError<never>).data).toEqual({ remote });
  });

  it('marks a subscription persistent only when its context asks for it', () => {
    const { requests, client } = stubConnection();
    const noop = { onData: () => undefined, onError: () => undefined };
    client.subscription('catalog.$watch', undefined, { ...noop, context: { [PERSISTENT]: true } }).unsubscribe();
    client.subscription('$rpc.watch', { r: 'ref_1' }, noop).unsubscribe();
    expect(requests.map((request) => [request.op.path, request.op.persistent])).toEqual([
      ['catalog.$watch', true],
      ['$rpc.watch', false],
    ]);
  });

  it('ends the connection operation when the caller unsubscribes', () => {
    const { requests, client } = stubConnection();
    client.subscription('catalog.$watch', undefined, { onData: () => undefined }).unsubscribe();
    expect(only(requests).ended).toBe(true);
  });

  it('an abort fails the call at once as cancelled, without waiting for the connection to answer', async () => {
    const { requests, client } = stubConnection();
    const controller = new AbortController();
    const call = client.mutation('probe.block', null, { signal: controller.signal });
    controller.abort();
    const error = await call.catch((caught: unknown) => caught);
    expect((error as TRPCClientError<never>).data).toMatchObject({ remote: { code: 'cancelled' } });
    expect(only(requests).ended).toBe(true);
  });

  it('a call whose signal is already aborted never reaches the connection', async () => {
    const { requests, client } = stubConnection();
    const error = await client
      .mutation('probe.echo', null, { signal: AbortSignal.abort() })
      .catch((caught: unknown) => caught);
    expect((error as TRPCClientError<never>).data).toMatchObject({ remote: { code: 'cancelled' } });
    expect(requests).toEqual([]);
  });
});
