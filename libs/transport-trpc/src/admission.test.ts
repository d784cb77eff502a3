import type { IncomingMessage } from 'node:http';
import { err, ok } from 'neverthrow';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { Context } from '@pi/context';
import { ServiceRegistry, defineRemoteService } from '@pi/remote';
import { TOO_MANY_UNAUTHENTICATED } from './admission';
import type { Authenticate } from './authentication';
import { DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from './connection-limits';
import { createRpcHost, type RpcHost } from './rpc-host';
import type { ServerSocket } from './server-socket';
import { FakeServerSocket } from './testing/fake-server-socket';
import { CLOSE_CODES, NOT_AUTHORIZED_REASON } from './wire-socket';

interface Adder {
  add(a: number, b: number, context: Context): Promise<number>;
}

const Adder = defineRemoteService<Adder>('adder', {
  methods: { add: { args: [z.number(), z.number()], result: z.number() } },
  state: {},
  events: {},
});

const TOKEN = 'the-token';
const HELLO = JSON.stringify({ method: 'connectionParams', data: { token: TOKEN } });
const ADD = JSON.stringify({
  id: 1,
  method: 'mutation',
  params: { path: 'adder.add', input: { json: { a: [2, 3], c: 'call-1' } } },
});
const PARAMS_FIRST = { url: '/?connectionParams=1', headers: { host: 'test' } } as IncomingMessage;

const byToken: Authenticate = (params) =>
  params?.['token'] === TOKEN ? ok({ principal: 'tester', claims: {} }) : err('Wrong token');

function startHost(
  connections: Partial<ConnectionLimits>,
  options: { authenticate?: Authenticate; keepAlive?: { pingMs: number; pongWaitMs: number } } = {},
): RpcHost {
  const registry = new ServiceRegistry();
  registry.provide(Adder, { add: async (a, b) => a + b });
  return createRpcHost({
    registry,
    authenticate: options.authenticate ?? byToken,
    keepAlive: options.keepAlive ?? false,
    connections,
  });
}

function accept(host: RpcHost, name: string, options: { peerAnswersClose?: boolean } = {}): FakeServerSocket {
  const socket = new FakeServerSocket(name, options);
  host.accept(socket as unknown as ServerSocket, PARAMS_FIRST);
  return socket;
}

/** The error frames a socket was sent: each one's id and remote code. */
function refusals(socket: FakeServerSocket): Array<{ id: unknown; code: unknown }> {
  return socket.frames
    .filter((frame) => frame.startsWith('{'))
    .map((frame) => JSON.parse(frame) as { id: unknown; error?: { json: { data: { remote: { code: string } } } } })
    .filter((frame) => frame.error !== undefined)
    .map((frame) => ({ id: frame.id, code: frame.error?.json.data.remote.code }));
}

/** Promise jobs and immediates run out: authentication and the replies that follow it. */
async function settle(): Promise<void> {
  for (let round = 0; round < 10; round++) await new Promise((resolve) => setImmediate(resolve));
}

/** Timers and the clock are faked; immediates stay real, so what a timer sets off runs out in `settle`. */
function fakeTime(): void {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
}

/** Fake time passes, then what it set off runs out. */
async function pass(ms: number): Promise<void> {
  await vi.advanceTimersByTimeAsync(ms);
  await settle();
}

describe('the authentication deadline', () => {
  afterEach(() => vi.useRealTimers());

  it('refuses a socket that never sends its connection params, though it answers every ping', async () => {
    fakeTime();
    const host = startHost({ authDeadlineMs: 10_000 }, { keepAlive: { pingMs: 1_000, pongWaitMs: 500 } });
    const silent = accept(host, 'silent');
    for (let second = 1; second < 10; second++) {
      await pass(1_000);
      silent.receive('PONG');
    }
    expect(silent.frames.filter((frame) => frame === 'PING')).toHaveLength(9);
    expect(silent.closes).toEqual([]);

    await pass(1_000);
    expect(refusals(silent)).toEqual([{ id: null, code: 'not_authorized' }]);
    // Closed as a wrong token is (4401), then at once: a peer that never answers the close holds nothing.
    expect(silent.closes).toEqual([['close', CLOSE_CODES.notAuthorized, NOT_AUTHORIZED_REASON], ['terminate']]);
  });

  it('leaves an authenticated connection alone', async () => {
    fakeTime();
    const host = startHost({ authDeadlineMs: 1_000 });
    const client = accept(host, 'client');
    client.receive(HELLO);
    await pass(5_000);
    client.receive(ADD);
    await pass(0);
    expect(client.closes).toEqual([]);
    expect(client.frames).toEqual([JSON.stringify({ id: 1, result: { type: 'data', data: { json: { value: 5 } } } })]);
  });

  it('closes with 1013 (try again later) a connection whose authentication by the host has not answered', async () => {
    fakeTime();
    const host = startHost({ authDeadlineMs: 1_000 }, { authenticate: () => new Promise(() => undefined) });
    const client = accept(host, 'client');
    client.receive(HELLO);
    await pass(1_000);
    expect(client.closes).toEqual([
      ['close', CLOSE_CODES.tryAgainLater, 'authentication took too long'],
      ['terminate'],
    ]);
  });

  it('ends a refused socket whose peer never answers the close at the deadline', async () => {
    fakeTime();
    const host = startHost({ authDeadlineMs: 1_000, maxUnauthenticated: 1 });
    const refused = accept(host, 'refused', { peerAnswersClose: false });
    refused.receive(JSON.stringify({ method: 'connectionParams', data: { token: 'wrong' } }));
    await pass(10);
    expect(refused.closes).toEqual([['close', CLOSE_CODES.notAuthorized, NOT_AUTHORIZED_REASON], ['close']]);
    // Still closing, so it still holds the one place.
    expect(accept(host, 'turned away').closes[0]).toEqual([
      'close',
      CLOSE_CODES.tryAgainLater,
      TOO_MANY_UNAUTHENTICATED,
    ]);

    await pass(1_000);
    expect(refused.closes.at(-1)).toEqual(['terminate']);
    expect(accept(host, 'admitted').closes).toEqual([]);
  });
});

describe('the cap on sockets awaiting authentication', () => {
  it('refuses one socket more than the cap, at once, while authenticated connections carry on', async () => {
    const host = startHost({ maxUnauthenticated: 2 });
    const authenticated: FakeServerSocket[] = [];
    for (const name of ['a1', 'a2', 'a3']) {
      const socket = accept(host, name);
      socket.receive(HELLO);
      await settle();
      authenticated.push(socket);
    }
    const silent = [accept(host, 's1'), accept(host, 's2')];

    const third = accept(host, 's3');
    expect(third.closes).toEqual([['close', CLOSE_CODES.tryAgainLater, TOO_MANY_UNAUTHENTICATED], ['terminate']]);
    for (const socket of silent) expect(socket.closes).toEqual([]);
    for (const socket of authenticated) socket.receive(ADD);
    await settle();
    for (const socket of authenticated) {
      expect(socket.closes).toEqual([]);
      expect(socket.frames).toEqual([
        JSON.stringify({ id: 1, result: { type: 'data', data: { json: { value: 5 } } } }),
      ]);
    }

    // A place frees when a waiting socket closes, or authenticates.
    silent[0]?.drop();
    const fourth = accept(host, 's4');
    expect(fourth.closes).toEqual([]);
    silent[1]?.receive(HELLO);
    await settle();
    expect(accept(host, 's5').closes).toEqual([]);
    expect(accept(host, 's6').closes[0]).toEqual(['close', CLOSE_CODES.tryAgainLater, TOO_MANY_UNAUTHENTICATED]);
  });
});

describe('a request before the connection params', () => {
  it('is refused as not authorized, the connection with id null and the request with its own id, then 4401', async () => {
    const host = startHost({});
    const early = accept(host, 'early');
    early.receive(ADD);
    await settle();
    expect(refusals(early)).toEqual([
      { id: null, code: 'not_authorized' },
      { id: 1, code: 'not_authorized' },
    ]);
    expect(early.closes).toEqual([['close', CLOSE_CODES.notAuthorized, NOT_AUTHORIZED_REASON]]);
  });

  it('in a batch, each request is refused with its own id', async () => {
    const host = startHost({});
    const early = accept(host, 'early');
    early.receive(`[${ADD},${ADD.replace('"id":1', '"id":2')}]`);
    await settle();
    expect(refusals(early).map((refusal) => refusal.id)).toEqual([null, 1, 2]);
    expect(early.closes).toEqual([['close', CLOSE_CODES.notAuthorized, NOT_AUTHORIZED_REASON]]);
  });

  it('params that are not JSON stay a malformed frame', async () => {
    const host = startHost({});
    const garbled = accept(host, 'garbled');
    garbled.receive('{"method":');
    await settle();
    expect(refusals(garbled)).toEqual([{ id: null, code: 'invalid_argument' }]);
  });
});

describe('connection limits', () => {
  it('are the defaults unless the host sets them, and a nonsensical one is refused when the host is made', () => {
    expect(DEFAULT_CONNECTION_LIMITS).toEqual({ authDeadlineMs: 10_000, maxUnauthenticated: 128, requestsPerTurn: 32 });
    expect(() => startHost({ authDeadlineMs: 0 })).toThrow(RangeError);
    expect(() => startHost({ maxUnauthenticated: 0.5 })).toThrow(RangeError);
    expect(() => startHost({ requestsPerTurn: Number.NaN })).toThrow(RangeError);
    expect(() => startHost({ requestsPerTurn: Number.POSITIVE_INFINITY, maxUnauthenticated: 1 })).not.toThrow();
  });
});
