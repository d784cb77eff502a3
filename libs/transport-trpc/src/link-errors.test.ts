import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TRPCClientError, createTRPCUntypedClient } from '@trpc/client';
import type { AnyRouter } from '@trpc/server';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import { err, ok } from 'neverthrow';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Context } from '@pi/context';
import { ServiceRegistry, defineRemoteService } from '@pi/remote';
import type { Authenticate } from './authentication';
import { rpcLink } from './link';
import { loopbackFactory } from './loopback';
import { RpcConnection } from './rpc-connection';
import { createRpcHost } from './rpc-host';
import { webSocketFactory } from './websocket-client';
import { listenWebSocket } from './websocket-server';
import type { SocketFactory } from './wire-socket';

interface Gate {
  /** Answers only when the test opens the gate. */
  wait(context: Context): Promise<void>;
  fail(value: string, context: Context): Promise<void>;
}

const Gate = defineRemoteService<Gate>('gate', {
  methods: { wait: { args: [], result: z.void() }, fail: { args: [z.string()], result: z.void() } },
  state: {},
  events: {},
});

const TOKEN = 'link-errors-token';
const byToken: Authenticate = (params) =>
  params?.['token'] === TOKEN ? ok({ principal: 'tester', claims: {} }) : err('Wrong token');

/** A host serving Gate over one transport, and a stock tRPC client over pi's link on a connection to it. */
async function start(kind: 'loopback' | 'websocket', token = TOKEN) {
  const registry = new ServiceRegistry();
  let arrived: () => void = () => undefined;
  const waiting = new Promise<void>((resolve) => (arrived = resolve));
  registry.provide(Gate, {
    wait: () => {
      arrived();
      return new Promise<void>(() => undefined);
    },
    fail: async () => undefined,
  });
  const host = createRpcHost({ registry, authenticate: byToken, keepAlive: false });
  let factory: SocketFactory = loopbackFactory(host);
  let cleanup = async () => undefined;
  if (kind === 'websocket') {
    const directory = await mkdtemp(join(tmpdir(), 'pi-link-'));
    const listened = await listenWebSocket(host, { socketPath: join(directory, 'rpc.sock') });
    if (listened.isErr()) throw new Error(listened.error.message);
    factory = webSocketFactory({ socketPath: join(directory, 'rpc.sock') });
    cleanup = async () => {
      await listened.value.close();
      await rm(directory, { recursive: true, force: true });
    };
  }
  const connection = new RpcConnection({ socketFactory: factory, connectionParams: { token }, reconnect: false });
  const client = createTRPCUntypedClient({ links: [rpcLink(connection)] });
  // Calls go out once the connection is up (or refused): a call before that fails as not connected.
  await new Promise<void>((resolve) => {
    const stopWatching = connection.state.subscribe((state) => {
      if (state.status === 'connecting') return;
      queueMicrotask(() => stopWatching());
      resolve();
    });
  });
  return {
    host,
    client,
    /** Resolves once the host is running a `gate.wait` call. */
    waiting,
    async stop() {
      connection.close();
      host.close();
      await cleanup();
    },
  };
}

/** What a stock tRPC user checks: a TRPCClientError, and its `data`. */
async function failure(call: Promise<unknown>): Promise<TRPCClientError<AnyRouter>> {
  const caught = await call.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(caught).toBeInstanceOf(TRPCClientError);
  return caught as TRPCClientError<AnyRouter>;
}

describe.each(['loopback', 'websocket'] as const)('errors pi’s link makes itself carry tRPC’s code (%s)', (kind) => {
  let stop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await stop?.();
    stop = undefined;
  });

  it('an aborted call is CLIENT_CLOSED_REQUEST, pi’s cancelled kept in data.remote', async () => {
    const fixture = await start(kind);
    stop = fixture.stop;
    const controller = new AbortController();
    const call = fixture.client.mutation('gate.wait', { a: [], c: 'w1' }, { signal: controller.signal });
    await fixture.waiting;
    controller.abort();
    const error = await failure(call);
    expect(error.data).toEqual({
      code: 'CLIENT_CLOSED_REQUEST',
      httpStatus: 499,
      remote: { code: 'cancelled', message: 'The call was cancelled' },
    });
    expect(error.shape?.code).toBe(TRPC_ERROR_CODES_BY_KEY.CLIENT_CLOSED_REQUEST);
  });

  it('a call past its deadline (AbortSignal.timeout) is TIMEOUT', async () => {
    const fixture = await start(kind);
    stop = fixture.stop;
    const controller = new AbortController();
    const call = fixture.client.mutation('gate.wait', { a: [], c: 'w2' }, { signal: controller.signal });
    await fixture.waiting;
    // What AbortSignal.timeout aborts with, without waiting on a clock.
    controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
    const error = await failure(call);
    expect(error.data).toMatchObject({ code: 'TIMEOUT', httpStatus: 408, remote: { code: 'timeout' } });
  });

  it('a call under way when the connection closes is SERVICE_UNAVAILABLE, pi’s disconnected kept', async () => {
    const fixture = await start(kind);
    stop = fixture.stop;
    const call = fixture.client.mutation('gate.wait', { a: [], c: 'w3' });
    await fixture.waiting;
    fixture.host.close();
    const error = await failure(call);
    expect(error.data).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      httpStatus: 503,
      remote: { code: 'disconnected' },
    });
  });

  it('a call on a connection whose token was refused is UNAUTHORIZED, pi’s not_authorized kept', async () => {
    const fixture = await start(kind, 'not-the-token');
    stop = fixture.stop;
    const error = await failure(fixture.client.mutation('gate.fail', { a: ['x'], c: 'f1' }));
    expect(error.data).toMatchObject({ code: 'UNAUTHORIZED', httpStatus: 401, remote: { code: 'not_authorized' } });
  });

  it('the host’s own refusal of an argument still arrives as the host formatted it (BAD_REQUEST)', async () => {
    const fixture = await start(kind);
    stop = fixture.stop;
    const error = await failure(fixture.client.mutation('gate.fail', { a: [42], c: 'f2' }));
    expect(error.data).toMatchObject({ code: 'BAD_REQUEST', httpStatus: 400, remote: { code: 'invalid_argument' } });
  });
});
