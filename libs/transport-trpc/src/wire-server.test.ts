import type { IncomingMessage } from 'node:http';
import { TRPCError } from '@trpc/server';
import { getWSConnectionHandler } from '@trpc/server/adapters/ws';
import { ok } from 'neverthrow';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { BACKGROUND_CONTEXT, withContextValue, type Context } from '@pi/context';
import {
  CALLER_IDENTITY,
  CLIENT_ID,
  ConnectionEndpoint,
  RemoteError,
  ServiceRegistry,
  createRemoteEvents,
  createRemoteState,
  defineRemoteService,
  hostDescriber,
  type RemoteEvents,
  type RemoteState,
} from '@pi/remote';
import { tokenAuthentication, type Authenticate } from './authentication';
import { PROTOCOL_VERSION } from './hello';
import { DEFAULT_FLOW_CONTROL, OutboundPressure } from './outbound-pressure';
import { createHostProcedures } from './router';
import type { ServerSocket } from './server-socket';
import type { HostRequestContext } from './trpc';
import { CLOSE_CODES, NOT_AUTHORIZED_REASON } from './wire-socket';
import { createWireServer } from './wire-server';
import { FakeServerSocket } from './testing/fake-server-socket';

/**
 * The same conversations, byte for byte, through tRPC's own ws adapter (`getWSConnectionHandler`, configured as
 * `createRpcHost` configured it before the wire server replaced it) and through `createWireServer`, both serving the
 * same router, procedure table and `createContext`. Each side talks to its own fake socket; a conversation is fed to
 * both in lockstep (the registry is shared, so a state change or event reaches both at once), and what each socket
 * put on the wire, and every close, must be identical.
 *
 * Left unspecified, so not compared: what never reaches the wire. The two raise some TRPCErrors with different
 * messages (a wrong path is `No "query"-procedure on path …` in tRPC, `No procedure found on path …` here; a parse
 * failure's cause differs), but `formatError` replaces every tRPC message with the remote envelope's, which the
 * NOT_FOUND and PARSE_ERROR conversations below show to be the same bytes. Sends after the socket stopped being open
 * (tRPC sends PONG unchecked; the wire server does not send) put nothing on a `ws` socket, so only open sends are
 * captured. Keep-alive is not a conversation: its timing differs by design (one check per period, see wire-server.ts).
 */

interface Counter {
  readonly count: RemoteState<{ n: number }>;
  readonly ticks: RemoteEvents<{ tick: number }>;
  add(a: number, b: number, context: Context): Promise<number>;
  fail(reason: string, context: Context): Promise<void>;
  /** Settles only when the call is aborted: cancelled, or its connection ended. */
  hold(context: Context): Promise<void>;
}

const Counter = defineRemoteService<Counter>('counter', {
  methods: {
    add: { args: [z.number(), z.number()], result: z.number() },
    fail: { args: [z.string()], result: z.void() },
    hold: { args: [], result: z.void() },
  },
  state: { count: z.object({ n: z.number() }) },
  events: { ticks: z.object({ tick: z.number() }) },
});

const IDENTITY = { principal: 'tester', claims: {} };
const GOOD_TOKEN = 'good-token';

const OPEN = 1;

/** The registry and procedures both servers serve, and a `createContext` as `createRpcHost`'s. */
function createWorld(authenticate: Authenticate) {
  const count = createRemoteState({ n: 0 });
  const ticks = createRemoteEvents<{ tick: number }>();
  const registry = new ServiceRegistry();
  registry.provide(Counter, {
    count,
    ticks,
    add: async (a, b) => a + b,
    fail: async (reason) => {
      throw new RemoteError('failed_precondition', `It failed: ${reason}`, { reason });
    },
    hold: (context) =>
      new Promise<void>((_resolve, reject) =>
        context.abortSignal?.addEventListener('abort', () => reject(context.abortSignal?.reason)),
      ),
  });
  /** Every connection's endpoint, as the host keeps them to close them all. */
  const endpoints: ConnectionEndpoint[] = [];
  const serviceIds = registry.exposedIds();
  const describe = hostDescriber(registry, serviceIds, () => []);
  const { router, table } = createHostProcedures(registry, serviceIds, describe);

  /** `createRpcHost`'s `createContext`, with the client id the test gave the socket instead of a random one. */
  const createContext = async (
    res: ServerSocket,
    connectionParams: Record<string, string> | null,
  ): Promise<HostRequestContext> => {
    const identity = await authenticate(connectionParams);
    if (identity.isErr()) {
      setImmediate(() => res.close(CLOSE_CODES.notAuthorized, NOT_AUTHORIZED_REASON));
      throw new TRPCError({ code: 'UNAUTHORIZED', message: identity.error });
    }
    if (res.readyState !== OPEN)
      throw new TRPCError({ code: 'CLIENT_CLOSED_REQUEST', message: 'The client went away' });
    const clientId = (res as unknown as FakeServerSocket).clientId;
    const connectionContext = withContextValue(
      CALLER_IDENTITY,
      identity.value,
      withContextValue(CLIENT_ID, clientId, BACKGROUND_CONTEXT),
    );
    const endpoint = new ConnectionEndpoint({ registry, clientId, connectionContext });
    endpoints.push(endpoint);
    res.once('close', () => endpoint.close());
    const pressure = new OutboundPressure(res, DEFAULT_FLOW_CONTROL);
    pressure.clientId = clientId;
    return { endpoint, pressure };
  };

  const theirs = getWSConnectionHandler({
    router,
    // tRPC types the params as a Dict (values possibly undefined); what it parses holds strings only.
    createContext: ({ res, info }) =>
      createContext(res as ServerSocket, info.connectionParams as Record<string, string> | null),
    // Its default encoder: JSON.stringify, which writes a watch frame through its `toJSON`.
    wss: undefined as never,
  });
  const ours = createWireServer({ router, procedures: table, createContext });
  return { count, ticks, endpoints, theirs, ours };
}

type World = ReturnType<typeof createWorld>;

/** One step of a conversation, done to both sockets. */
type Step =
  | string
  | { readonly raw: unknown; readonly binary: boolean }
  | { readonly act: (world: World) => void }
  /** Several messages (or the socket dropping) in one tick, with nothing settling in between. */
  | { readonly burst: ReadonlyArray<string | 'drop'> }
  | 'drop';

interface Conversation {
  /** `?connectionParams=1`: the client's first message is its connection params. */
  readonly params?: boolean;
  readonly authenticate?: Authenticate;
  readonly steps: readonly Step[];
  /** What the conversation is about, checked on tRPC's side so that agreeing on nothing proves nothing. */
  readonly check: (frames: readonly unknown[], closes: readonly unknown[][]) => void;
}

/** Lets the servers' promise chains, immediates and the endpoint's deliveries run out. */
async function settle(): Promise<void> {
  for (let round = 0; round < 20; round++) await new Promise((resolve) => setImmediate(resolve));
}

const HELLO = JSON.stringify({ method: 'connectionParams', data: { token: GOOD_TOKEN } });

function call(id: number | string | null, path: string, input: unknown, extra: object = {}): string {
  return JSON.stringify({ id, method: 'mutation', params: { path, input }, ...extra });
}

function subscribe(id: number | string, path: string): string {
  return JSON.stringify({ id, method: 'subscription', params: { path } });
}

function stop(id: number | string): string {
  return JSON.stringify({ id, method: 'subscription.stop' });
}

const ADD = { json: { a: [2, 3], c: 'call-1' } };
/** An error frame for request `id` whose remote error has `code`. */
function refused(code: string, id: number | string | null, jsonrpc?: '2.0') {
  return {
    id,
    ...(jsonrpc === undefined ? {} : { jsonrpc }),
    error: {
      json: {
        code: expect.any(Number),
        message: expect.any(String),
        data: { code: expect.any(String), httpStatus: expect.any(Number), remote: expect.objectContaining({ code }) },
      },
    },
  };
}

/** A text message as `ws` delivers one (a Buffer, not binary), or the client dropping the connection. */
function deliver(socket: FakeServerSocket, message: string | 'drop'): void {
  if (message === 'drop') socket.drop();
  else socket.emit('message', Buffer.from(message), false);
}

async function converse(conversation: Conversation) {
  const world = createWorld(conversation.authenticate ?? tokenAuthentication(GOOD_TOKEN, IDENTITY));
  const request = { url: conversation.params === false ? '/' : '/?connectionParams=1', headers: { host: 'test' } };
  const sockets = { theirs: new FakeServerSocket('client-1'), ours: new FakeServerSocket('client-1') };
  world.theirs(sockets.theirs as never, request as IncomingMessage);
  world.ours(sockets.ours as unknown as ServerSocket, request as IncomingMessage);
  await settle();
  for (const step of conversation.steps) {
    for (const socket of [sockets.theirs, sockets.ours]) {
      if (typeof step === 'string') deliver(socket, step);
      else if ('raw' in step) socket.emit('message', step.raw, step.binary);
      else if ('burst' in step) for (const message of step.burst) deliver(socket, message);
    }
    if (typeof step === 'object' && 'act' in step) step.act(world);
    await settle();
  }
  return sockets;
}

const CONVERSATIONS: Record<string, Conversation> = {
  'connection params accepted, then a call': {
    steps: [HELLO, call(1, 'counter.add', ADD), call(2, '$rpc.hello', undefined)],
    check: (frames, closes) => {
      expect(frames).toEqual([
        { id: 1, result: { type: 'data', data: { json: { value: 5 } } } },
        { id: 2, result: { type: 'data', data: { json: { clientId: 'client-1', protocol: PROTOCOL_VERSION } } } },
      ]);
      expect(closes).toEqual([]);
    },
  },
  'a wrong token is refused with id null, then the socket closes': {
    steps: [JSON.stringify({ method: 'connectionParams', data: { token: 'wrong' } })],
    check: (frames, closes) => {
      expect(frames).toEqual([
        {
          id: null,
          error: expect.objectContaining({
            json: expect.objectContaining({
              data: {
                code: 'UNAUTHORIZED',
                httpStatus: 401,
                remote: { code: 'not_authorized', message: 'Not authorized' },
              },
            }),
          }),
        },
      ]);
      expect(closes).toEqual([['close', CLOSE_CODES.notAuthorized, NOT_AUTHORIZED_REASON], ['close']]);
    },
  },
  'a call sent right behind a refused handshake is refused with its own id': {
    // In one tick: the call waits for the handshake's outcome, and is answered before the close.
    steps: [
      {
        burst: [JSON.stringify({ method: 'connectionParams', data: { token: 'wrong' } }), call(1, 'counter.add', ADD)],
      },
    ],
    check: (frames, closes) => {
      expect(frames).toEqual([refused('not_authorized', null), refused('not_authorized', 1)]);
      expect(closes).toEqual([['close', CLOSE_CODES.notAuthorized, NOT_AUTHORIZED_REASON], ['close']]);
    },
  },
  'a subscription sent right behind a refused handshake is refused, and not stopped': {
    steps: [{ burst: [JSON.stringify({ method: 'connectionParams', data: {} }), subscribe(1, 'counter.$watch')] }],
    check: (frames, closes) => {
      expect(frames).toEqual([refused('not_authorized', null), refused('not_authorized', 1)]);
      expect(closes).toEqual([['close', CLOSE_CODES.notAuthorized, NOT_AUTHORIZED_REASON], ['close']]);
    },
  },
  'an authentication that throws refuses the connection as an internal error': {
    authenticate: () => {
      throw new Error('secret detail');
    },
    steps: [{ burst: [HELLO, call(1, 'counter.add', ADD)] }],
    check: (frames, closes) => {
      expect(frames).toEqual([refused('internal', null), refused('internal', 1)]);
      expect(JSON.stringify(frames)).not.toContain('secret');
      expect(closes).toEqual([['close']]);
    },
  },
  'an authentication that rejects, without connection params': {
    params: false,
    authenticate: () => Promise.reject(new TRPCError({ code: 'FORBIDDEN', message: 'secret detail' })),
    steps: [call(1, 'counter.add', ADD)],
    check: (frames, closes) => {
      expect(frames).toEqual([refused('not_authorized', null)]);
      expect(closes).toEqual([['close']]);
    },
  },
  'connection params expected, but the first message is not JSON': {
    // The call comes in the same tick, before the refusal's close: it waits for the connection params, and fails.
    steps: [{ burst: ['{not json', call(1, 'counter.add', ADD)] }],
    check: (frames, closes) => {
      expect(frames).toEqual([refused('invalid_argument', null), refused('invalid_argument', 1)]);
      expect(closes).toEqual([['close']]);
    },
  },
  'connection params expected, but the first message is not an object': {
    steps: ['[1,2]'],
    check: (frames, closes) => {
      expect(frames).toEqual([refused('invalid_argument', null)]);
      expect(closes).toEqual([['close']]);
    },
  },
  'connection params whose values are not strings': {
    steps: [JSON.stringify({ method: 'connectionParams', data: { token: 1 } })],
    check: (frames, closes) => {
      expect(frames).toEqual([refused('invalid_argument', null)]);
      expect(closes).toEqual([['close']]);
    },
  },
  'no connection params expected: the context is created at once, and a call succeeds': {
    params: false,
    authenticate: () => ok(IDENTITY),
    steps: [call(1, 'counter.add', ADD)],
    check: (frames) => expect(frames).toEqual([{ id: 1, result: { type: 'data', data: { json: { value: 5 } } } }]),
  },
  'no connection params expected, and none is no token: refused before any message': {
    params: false,
    steps: [],
    check: (frames, closes) => {
      expect(frames).toEqual([refused('not_authorized', null)]);
      expect(closes).toEqual([['close', CLOSE_CODES.notAuthorized, NOT_AUTHORIZED_REASON], ['close']]);
    },
  },
  'a JSON-RPC 2.0 call keeps its jsonrpc': {
    steps: [HELLO, call('a', 'counter.add', ADD, { jsonrpc: '2.0' })],
    check: (frames) =>
      expect(frames).toEqual([{ id: 'a', jsonrpc: '2.0', result: { type: 'data', data: { json: { value: 5 } } } }]),
  },
  'a method that throws a RemoteError': {
    steps: [HELLO, call(1, 'counter.fail', { json: { a: ['nope'], c: 'call-1' } })],
    check: (frames) =>
      expect(frames).toEqual([
        {
          id: 1,
          error: {
            json: {
              code: -32022,
              message: 'It failed: nope',
              data: {
                code: 'UNPROCESSABLE_CONTENT',
                httpStatus: 422,
                remote: { code: 'failed_precondition', message: 'It failed: nope', data: { reason: 'nope' } },
              },
            },
          },
        },
      ]),
  },
  'a method whose arguments break its contract': {
    steps: [HELLO, call(1, 'counter.add', { json: { a: ['two', 3], c: 'call-1' } })],
    check: (frames) => expect(frames).toEqual([refused('invalid_argument', 1)]),
  },
  'a call whose envelope is not { a, c }': {
    steps: [
      HELLO,
      call(1, 'counter.add', { json: { a: 'x' } }),
      call(2, 'counter.add', { json: [1] }),
      call(3, 'counter.add', undefined),
    ],
    check: (frames) =>
      expect(frames).toEqual([
        refused('invalid_argument', 1),
        refused('invalid_argument', 2),
        refused('invalid_argument', 3),
      ]),
  },
  "an input with superjson's meta": {
    steps: [HELLO, call(1, 'counter.add', { ...ADD, meta: { values: { 'a.0': ['undefined'] } } })],
    check: (frames) => expect(frames).toEqual([refused('invalid_argument', 1)]),
  },
  'a $rpc input that fails its schema': {
    steps: [HELLO, call(1, '$rpc.cancel', { json: { c: 7 } })],
    check: (frames) => expect(frames).toEqual([refused('invalid_argument', 1)]),
  },
  'an unknown service, an unknown member, a router path and a query to a mutation': {
    steps: [
      HELLO,
      call(1, 'nowhere.add', ADD),
      call(2, 'counter.nothing', ADD),
      call(3, 'counter', ADD),
      JSON.stringify({ id: 4, method: 'query', params: { path: 'counter.add', input: ADD } }),
      call(5, 'counter.$watch', undefined),
      call(6, 'toString', undefined),
      call(7, '', undefined),
    ],
    check: (frames) => {
      expect(frames).toHaveLength(7);
      expect(frames[0]).toEqual(refused('unknown_service', 1));
      expect(frames[1]).toEqual(refused('unknown_member', 2));
    },
  },
  'a call with id null': {
    steps: [HELLO, call(null, 'counter.add', ADD), call(null, 'counter.add', ADD, { jsonrpc: '2.0' })],
    check: (frames) => {
      expect(frames).toEqual([refused('invalid_argument', null), refused('invalid_argument', null, '2.0')]);
    },
  },
  'malformed JSON, a non-object and a message that is not a request': {
    steps: [
      HELLO,
      '{"id":1,',
      '42',
      'null',
      '"text"',
      JSON.stringify({ id: 1, method: 'nope', params: { path: 'counter.add' } }),
      JSON.stringify({ id: 1, method: 'mutation' }),
      JSON.stringify({ id: 1, method: 'mutation', params: { path: 7 } }),
      JSON.stringify({ id: {}, method: 'mutation', params: { path: 'counter.add' } }),
      JSON.stringify({ id: 1, jsonrpc: '1.0', method: 'mutation', params: { path: 'counter.add' } }),
      JSON.stringify({ id: 1, method: 'subscription', params: { path: 'counter.$watch', lastEventId: 3 } }),
    ],
    check: (frames) => {
      expect(frames).toHaveLength(10);
      for (const frame of frames) expect(frame).toEqual(refused('invalid_argument', null));
    },
  },
  'a batch of two calls': {
    steps: [HELLO, `[${call(1, 'counter.add', ADD)},${call(2, 'counter.add', { json: { a: [1, 1], c: 'call-2' } })}]`],
    check: (frames) =>
      expect(frames).toEqual([
        { id: 1, result: { type: 'data', data: { json: { value: 5 } } } },
        { id: 2, result: { type: 'data', data: { json: { value: 2 } } } },
      ]),
  },
  'a batch with one malformed item is refused whole': {
    steps: [HELLO, `[${call(1, 'counter.add', ADD)},{"id":2}]`, '[]'],
    check: (frames) => expect(frames).toEqual([refused('invalid_argument', null)]),
  },
  'a binary frame': {
    steps: [
      HELLO,
      { raw: Buffer.from(call(1, 'counter.add', ADD)), binary: true },
      { raw: Buffer.from('PING'), binary: true },
    ],
    check: (frames) => expect(frames).toEqual([refused('invalid_argument', null), refused('invalid_argument', null)]),
  },
  'a binary frame as the connection params': {
    steps: [{ raw: Buffer.from(HELLO), binary: true }],
    check: (frames, closes) => {
      expect(frames).toEqual([refused('invalid_argument', null)]);
      expect(closes).toEqual([['close']]);
    },
  },
  'a message that is not a Buffer': {
    steps: [
      HELLO,
      { raw: new TextEncoder().encode(call(1, 'counter.add', ADD)).buffer, binary: true },
      { raw: [Buffer.from(call(2, 'counter.add', ADD))], binary: true },
      { raw: new ArrayBuffer(4), binary: false },
    ],
    check: (frames) => {
      expect(frames).toHaveLength(3);
      for (const frame of frames) expect(frame).toEqual(refused('invalid_argument', null));
    },
  },
  'a text message that is not a Buffer but reads PING or PONG': {
    steps: [
      HELLO,
      { raw: 'PING', binary: false },
      { raw: 'PONG', binary: false },
      { raw: [Buffer.from('PING')], binary: false },
    ],
    check: (frames) => expect(frames).toEqual(['PONG', 'PONG']),
  },
  'a message that is not a Buffer before the connection params': {
    steps: [{ raw: new ArrayBuffer(4), binary: true }, HELLO, call(1, 'counter.add', ADD)],
    check: (frames) =>
      expect(frames).toEqual([
        refused('invalid_argument', null),
        { id: 1, result: { type: 'data', data: { json: { value: 5 } } } },
      ]),
  },
  'PING is answered with PONG, before and after the connection params, and PONG is ignored': {
    steps: ['PING', 'PONG', HELLO, 'PING', 'PONG', call(1, 'counter.add', ADD)],
    check: (frames) =>
      expect(frames).toEqual(['PONG', 'PONG', { id: 1, result: { type: 'data', data: { json: { value: 5 } } } }]),
  },
  'a $watch subscription: started, snapshot, a change, an event, stopped': {
    steps: [
      HELLO,
      subscribe(1, 'counter.$watch'),
      { act: ({ count }) => count.set({ n: 1 }, BACKGROUND_CONTEXT) },
      { act: ({ ticks }) => ticks.emit({ tick: 1 }, BACKGROUND_CONTEXT) },
      stop(1),
      { act: ({ count }) => count.set({ n: 2 }, BACKGROUND_CONTEXT) },
      call(2, 'counter.add', ADD),
    ],
    check: (frames) =>
      expect(frames).toEqual([
        { id: 1, result: { type: 'started' } },
        {
          id: 1,
          result: {
            type: 'data',
            data: { json: { kind: 'snapshot', seq: 0, state: { count: { revision: 0, value: { n: 0 } } } } },
          },
        },
        {
          id: 1,
          result: {
            type: 'data',
            data: { json: expect.objectContaining({ kind: 'state', seq: 1, cell: 'count', value: { n: 1 } }) },
          },
        },
        {
          id: 1,
          result: {
            type: 'data',
            data: { json: expect.objectContaining({ kind: 'event', seq: 2, stream: 'ticks', event: { tick: 1 } }) },
          },
        },
        { id: 1, result: { type: 'stopped' } },
        { id: 2, result: { type: 'data', data: { json: { value: 5 } } } },
      ]),
  },
  'a JSON-RPC 2.0 subscription sent before the connection params resolve': {
    steps: [
      {
        burst: [
          HELLO,
          `[${JSON.stringify({ id: 's', jsonrpc: '2.0', method: 'subscription', params: { path: 'counter.$watch' } })}]`,
        ],
      },
      stop('s'),
    ],
    check: (frames) => {
      expect(frames).toHaveLength(3);
      expect(frames[0]).toEqual({ id: 's', jsonrpc: '2.0', result: { type: 'started' } });
    },
  },
  'a subscription stopped before the connection params resolve never starts, and is stopped': {
    steps: [{ burst: [HELLO, subscribe(1, 'counter.$watch'), stop(1)] }, call(2, 'counter.add', ADD)],
    check: (frames) =>
      expect(frames).toEqual([
        { id: 1, result: { type: 'stopped' } },
        { id: 2, result: { type: 'data', data: { json: { value: 5 } } } },
      ]),
  },
  'a subscription stopped and subscribed again under its id in one tick': {
    steps: [HELLO, subscribe(1, 'counter.$watch'), { burst: [stop(1), subscribe(1, 'counter.$watch')] }],
    check: (frames) => expect(frames).toHaveLength(4),
  },
  'the socket closes while the connection params are being read: nothing starts': {
    steps: [{ burst: [HELLO, subscribe(1, 'counter.$watch'), call(2, 'counter.add', ADD), 'drop'] }],
    check: (frames, closes) => {
      expect(frames).toEqual([]);
      // createContext refuses a socket that closed while it awaited, and the refusal's close finds it closed.
      expect(closes).toEqual([['close']]);
    },
  },
  'the socket closes while a call is under way': {
    steps: [HELLO, { burst: [call(1, 'counter.add', ADD), 'drop'] }],
    check: (frames) => expect(frames).toEqual([]),
  },
  'two subscriptions, one stopped with JSON-RPC 2.0': {
    steps: [
      HELLO,
      subscribe(1, 'counter.$watch'),
      JSON.stringify({ id: 'two', jsonrpc: '2.0', method: 'subscription', params: { path: 'counter.$watch' } }),
      JSON.stringify({ id: 'two', jsonrpc: '2.0', method: 'subscription.stop' }),
      { act: ({ ticks }) => ticks.emit({ tick: 7 }, BACKGROUND_CONTEXT) },
    ],
    check: (frames) => {
      expect(frames).toHaveLength(6);
      expect(frames[4]).toEqual({ id: 'two', jsonrpc: '2.0', result: { type: 'stopped' } });
    },
  },
  'ids of every JSON shape a request id may take': {
    steps: [
      HELLO,
      call(0, 'counter.add', ADD),
      call(-1.5, 'counter.add', ADD),
      call('\u2028 "quoted" é', 'counter.add', ADD),
      call('', 'counter.add', ADD),
      subscribe(1e21, 'counter.$watch'),
    ],
    check: (frames) => expect(frames).toHaveLength(6),
  },
  'a lastEventId on a call and on a subscription': {
    steps: [
      HELLO,
      call(1, 'counter.add', ADD, { params: { path: 'counter.add', input: ADD, lastEventId: 'e1' } }),
      call(
        2,
        'counter.add',
        { json: [1] },
        { params: { path: 'counter.add', input: { json: [1] }, lastEventId: 'e1' } },
      ),
      call(3, 'counter.add', undefined, { params: { path: 'counter.add', lastEventId: 'e1' } }),
      JSON.stringify({ id: 4, method: 'subscription', params: { path: 'counter.$watch', lastEventId: 'e1' } }),
    ],
    check: (frames) => {
      expect(frames.slice(0, 3)).toEqual([
        { id: 1, result: { type: 'data', data: { json: { value: 5 } } } },
        refused('invalid_argument', 2),
        refused('invalid_argument', 3),
      ]);
      expect(frames[3]).toEqual({ id: 4, result: { type: 'started' } });
    },
  },
  'the $rpc procedures: describe, cancel, a refused reply, interactions': {
    steps: [
      HELLO,
      call(1, '$rpc.describe', undefined),
      call(2, '$rpc.cancel', { json: { c: 'call-1' } }),
      call(3, '$rpc.reply', { json: { nope: true } }),
      JSON.stringify({
        id: 4,
        method: 'subscription',
        params: { path: '$rpc.interactions', input: { json: { ids: [] } } },
      }),
      stop(4),
    ],
    check: (frames) => {
      expect(frames[0]).toMatchObject({
        id: 1,
        result: { type: 'data', data: { json: { services: [expect.anything()] } } },
      });
      expect(frames.slice(1, 3)).toEqual([
        { id: 2, result: { type: 'data', data: { json: null } } },
        refused('invalid_argument', 3),
      ]);
    },
  },
  'a call cancelled with $rpc.cancel': {
    steps: [
      HELLO,
      call(1, 'counter.hold', { json: { a: [], c: 'held' } }),
      call(2, '$rpc.cancel', { json: { c: 'held' } }),
    ],
    check: (frames) => {
      expect(frames).toHaveLength(2);
      expect(frames).toContainEqual(refused('cancelled', 1));
    },
  },
  "the host ends a connection's endpoint while a call and a subscription are open": {
    steps: [
      HELLO,
      call(1, 'counter.hold', { json: { a: [], c: 'held' } }),
      subscribe(2, 'counter.$watch'),
      { act: ({ endpoints }) => endpoints.forEach((endpoint) => endpoint.close()) },
      call(3, 'counter.add', ADD),
    ],
    check: (frames) => {
      // The held call fails; the watch is left open (its stream neither ends nor fails), for the socket's close to end.
      expect(frames.slice(2)).toEqual([refused('disconnected', 1), refused('disconnected', 3)]);
    },
  },
  'a subscription id already in use': {
    steps: [HELLO, subscribe(1, 'counter.$watch'), subscribe(1, 'counter.$watch'), call(1, 'counter.add', ADD)],
    check: (frames) => {
      expect(frames).toHaveLength(4);
      expect(frames[2]).toEqual(refused('invalid_argument', 1));
    },
  },
  'stopping an id that is no subscription': {
    steps: [
      HELLO,
      stop(9),
      stop('x'),
      JSON.stringify({ id: null, method: 'subscription.stop' }),
      call(1, 'counter.add', ADD),
    ],
    check: (frames) =>
      expect(frames).toEqual([
        refused('invalid_argument', null),
        { id: 1, result: { type: 'data', data: { json: { value: 5 } } } },
      ]),
  },
  'a subscription to an unknown path, and to a method': {
    steps: [HELLO, subscribe(1, 'counter.$nothing'), subscribe(2, 'counter.add'), subscribe(1, 'counter.$watch')],
    check: (frames) => {
      expect(frames.slice(0, 2)).toEqual([refused('unknown_member', 1), refused('unknown_member', 2)]);
      expect(frames[2]).toEqual({ id: 1, result: { type: 'started' } });
    },
  },
  'a $rpc.watch whose reference is unknown': {
    steps: [
      HELLO,
      JSON.stringify({
        id: 1,
        method: 'subscription',
        params: { path: '$rpc.watch', input: { json: { r: 'ref-1' } } },
      }),
    ],
    check: (frames) => expect(frames.length).toBeGreaterThan(0),
  },
  'the socket closes while subscribed: nothing more is sent': {
    steps: [
      HELLO,
      subscribe(1, 'counter.$watch'),
      'drop',
      { act: ({ count }) => count.set({ n: 1 }, BACKGROUND_CONTEXT) },
      { act: ({ ticks }) => ticks.emit({ tick: 1 }, BACKGROUND_CONTEXT) },
    ],
    check: (frames, closes) => {
      expect(frames).toHaveLength(2);
      expect(closes).toEqual([]);
    },
  },
};

describe("the wire server speaks tRPC's WebSocket protocol as tRPC's adapter does", () => {
  it.each(Object.entries(CONVERSATIONS))('%s', async (_name, conversation) => {
    const { theirs, ours } = await converse(conversation);
    conversation.check(
      theirs.frames.map((frame) => (frame.startsWith('{') || frame.startsWith('[') ? JSON.parse(frame) : frame)),
      theirs.closes,
    );
    expect(ours.frames).toEqual(theirs.frames);
    expect(ours.closes).toEqual(theirs.closes);
  });
});

describe("where the wire server departs from tRPC's adapter, on purpose", () => {
  const parsed = (frames: readonly string[]) => frames.map((frame) => JSON.parse(frame) as unknown);

  it('a call before the connection params: malformed params to tRPC, not authorized (4401) to the wire server', async () => {
    const { theirs, ours } = await converse({ steps: [call(1, 'counter.add', ADD)], check: () => undefined });
    expect(parsed(theirs.frames)).toEqual([refused('invalid_argument', null)]);
    expect(theirs.closes).toEqual([['close']]);
    expect(parsed(ours.frames)).toEqual([refused('not_authorized', null), refused('not_authorized', 1)]);
    expect(ours.closes).toEqual([['close', CLOSE_CODES.notAuthorized, NOT_AUTHORIZED_REASON]]);
  });
});

describe('keep-alive on the wire server', () => {
  const PING_MS = 1_000;
  const PONG_WAIT_MS = 500;

  function quietClient() {
    vi.useFakeTimers();
    const { router } = createHostProcedures(new ServiceRegistry(), [], () => ({}) as never);
    const server = createWireServer({
      router,
      procedures: new Map(),
      createContext: async () => ({}) as never,
      keepAlive: { pingMs: PING_MS, pongWaitMs: PONG_WAIT_MS },
    });
    const socket = new FakeServerSocket('quiet');
    server(socket as unknown as ServerSocket, { url: '/', headers: {} } as IncomingMessage);
    return socket;
  }

  afterEach(() => vi.useRealTimers());

  it('pings a client after pingMs of quiet, and terminates it pongWaitMs later when nothing comes', async () => {
    const socket = quietClient();
    vi.advanceTimersByTime(PING_MS - 1);
    expect(socket.frames).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(socket.frames).toEqual(['PING']);
    vi.advanceTimersByTime(PONG_WAIT_MS);
    expect(socket.closes).toEqual([['terminate']]);
  });

  it('a message counts as a sign of life: the ping comes pingMs after the last one', async () => {
    const socket = quietClient();
    vi.advanceTimersByTime(PING_MS / 2);
    socket.emit('message', Buffer.from('PONG'), false);
    vi.advanceTimersByTime(PING_MS - 1);
    expect(socket.frames).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(socket.frames).toEqual(['PING']);
  });

  it('an answer to the ping keeps the client, and the next ping follows after pingMs more of quiet', async () => {
    const socket = quietClient();
    vi.advanceTimersByTime(PING_MS);
    socket.emit('message', Buffer.from('PONG'), false);
    vi.advanceTimersByTime(PONG_WAIT_MS);
    expect(socket.closes).toEqual([]);
    vi.advanceTimersByTime(PING_MS - PONG_WAIT_MS);
    expect(socket.frames).toEqual(['PING', 'PING']);
  });

  it('a closed socket is never pinged', async () => {
    const socket = quietClient();
    socket.drop();
    vi.advanceTimersByTime(PING_MS * 3);
    expect(socket.frames).toEqual([]);
  });
});
