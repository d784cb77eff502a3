import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PROTOCOL_VERSION, UNDECLARED_PROTOCOL, VERSION_MISMATCH } from './hello';
import { RpcConnection } from './rpc-connection';
import type { ErrorShape, Operation, OperationHandlers } from './rpc-operation';
import { stubSocketFactory } from './testing/stub-socket';

const POLICY = { minDelayMs: 100, maxDelayMs: 1_000 };

function recorder() {
  const events: Array<
    { kind: 'data'; data: unknown } | { kind: 'error'; code: string | undefined } | { kind: 'complete' }
  > = [];
  const handlers: OperationHandlers = {
    data: (data) => events.push({ kind: 'data', data }),
    error: (shape: ErrorShape) => events.push({ kind: 'error', code: shape.data?.remote?.code }),
    complete: () => events.push({ kind: 'complete' }),
  };
  return { events, handlers };
}

const call = (path: string): Operation => ({ type: 'mutation', path, input: { json: null }, persistent: false });
const watch = (path: string, persistent: boolean): Operation => ({
  type: 'subscription',
  path,
  input: { json: null },
  persistent,
});

describe('RpcConnection', () => {
  let stubs: ReturnType<typeof stubSocketFactory>;
  let connection: RpcConnection | undefined;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    stubs = stubSocketFactory();
  });
  afterEach(() => {
    connection?.close();
    connection = undefined;
    vi.useRealTimers();
  });

  function connect(reconnect: typeof POLICY | false = POLICY) {
    connection = new RpcConnection({ socketFactory: stubs.factory, connectionParams: { token: 't' }, reconnect });
    stubs.latest().open();
    stubs.latest().acceptHello();
    return connection;
  }

  it('sends connection params first, then a hello, and is connected only once the hello is answered', () => {
    connection = new RpcConnection({
      socketFactory: stubs.factory,
      connectionParams: { token: 't' },
      reconnect: POLICY,
    });
    const socket = stubs.latest();
    socket.open();
    expect(socket.frames().map((frame) => frame.method)).toEqual(['connectionParams', 'mutation']);
    expect(socket.frames()[0]).toEqual({ method: 'connectionParams', data: { token: 't' } });
    expect(connection.state.value.status).toBe('connecting');
    socket.acceptHello();
    expect(connection.state.value).toEqual({ status: 'connected', epoch: 1 });
  });

  it('sends an operation in the same turn it is made, one frame per operation', () => {
    const live = connect();
    const socket = stubs.latest();
    const before = socket.sent.length;
    live.request(call('probe.echo'), recorder().handlers);
    live.request(call('probe.nothing'), recorder().handlers);
    const frames = socket.frames().slice(-2);
    expect(socket.sent.length).toBe(before + 2);
    expect(frames.map((frame) => frame.params?.path)).toEqual(['probe.echo', 'probe.nothing']);
  });

  it('delivers a mutation result once and completes it', () => {
    const live = connect();
    const { events, handlers } = recorder();
    live.request(call('probe.echo'), handlers);
    const id = stubs.latest().frames().at(-1)?.id;
    stubs.latest().receive({ id, result: { type: 'data', data: { json: 1 } } });
    stubs.latest().receive({ id, result: { type: 'data', data: { json: 2 } } });
    expect(events).toEqual([{ kind: 'data', data: { json: 1 } }, { kind: 'complete' }]);
    expect(live.activeOperations).toBe(0);
  });

  it('a call made while disconnected fails at once with disconnected and sends nothing', async () => {
    const live = connect();
    stubs.latest().drop(1006);
    const sent = stubs.latest().sent.length;
    const { events, handlers } = recorder();
    live.request(call('probe.echo'), handlers);
    await Promise.resolve();
    expect(events).toEqual([{ kind: 'error', code: 'disconnected' }]);
    expect(stubs.latest().sent.length).toBe(sent);
  });

  it('a call in flight fails with disconnected when the socket drops and is never sent again', async () => {
    const live = connect();
    const { events, handlers } = recorder();
    live.request(call('probe.block'), handlers);
    stubs.latest().drop(1006);
    expect(events).toEqual([{ kind: 'error', code: 'disconnected' }]);

    vi.advanceTimersByTime(POLICY.maxDelayMs);
    stubs.latest().open();
    stubs.latest().acceptHello();
    expect(live.state.value).toEqual({ status: 'connected', epoch: 2 });
    expect(
      stubs
        .latest()
        .frames()
        .some((frame) => frame.params?.path === 'probe.block'),
    ).toBe(false);
  });

  it('a persistent subscription is sent again on the next connection; a plain one ends with the socket', () => {
    const live = connect();
    const persistent = recorder();
    const plain = recorder();
    live.request(watch('catalog.$watch', true), persistent.handlers);
    live.request(watch('$rpc.watch', false), plain.handlers);
    stubs.latest().drop(1006);
    expect(persistent.events).toEqual([]);
    expect(plain.events).toEqual([{ kind: 'error', code: 'disconnected' }]);

    vi.advanceTimersByTime(POLICY.maxDelayMs);
    const next = stubs.latest();
    next.open();
    expect(next.frames().some((frame) => frame.params?.path === 'catalog.$watch')).toBe(false);
    next.acceptHello();
    expect(next.frames().filter((frame) => frame.params?.path === 'catalog.$watch')).toHaveLength(1);
    expect(next.frames().some((frame) => frame.params?.path === '$rpc.watch')).toBe(false);
  });

  it('reconnects after the backoff delay, not before', () => {
    connect();
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    stubs.latest().drop(1006);
    expect(stubs.sockets).toHaveLength(1);
    vi.advanceTimersByTime(POLICY.minDelayMs - 1);
    expect(stubs.sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(stubs.sockets).toHaveLength(2);
    expect(connection?.state.value).toEqual({ status: 'connecting', attempt: 1 });
  });

  it('a refused hello ends the connection as not_authorized without retrying', async () => {
    connection = new RpcConnection({
      socketFactory: stubs.factory,
      connectionParams: { token: 'bad' },
      reconnect: POLICY,
    });
    const socket = stubs.latest();
    socket.open();
    const remote = { code: 'not_authorized', message: 'Not authorized' };
    socket.receive({ id: null, error: { json: { code: -32001, message: 'Not authorized', data: { remote } } } });
    const hello = socket.frames().find((frame) => frame.params?.path === '$rpc.hello');
    socket.receive({ id: hello?.id, error: { json: { code: -32001, message: 'Not authorized', data: { remote } } } });
    await vi.waitFor(() => expect(connection?.state.value.status).toBe('disconnected'));
    expect(connection.state.value).toEqual({ status: 'disconnected', reason: remote, retrying: false });
    vi.advanceTimersByTime(POLICY.maxDelayMs * 10);
    expect(stubs.sockets).toHaveLength(1);
  });

  it('declares its protocol in the hello and takes a host that declares none for protocol 1.0', () => {
    const live = connect();
    const hello = stubs
      .latest()
      .frames()
      .find((frame) => frame.params?.path === '$rpc.hello');
    expect(hello?.params?.input).toEqual({ json: { protocol: PROTOCOL_VERSION } });
    expect(live.state.value.status).toBe('connected');
    expect(live.host).toEqual({ clientId: 'client-1', protocol: UNDECLARED_PROTOCOL });
  });

  it('refuses a host of another protocol major with version_mismatch, closes with 1008 and does not retry', async () => {
    connection = new RpcConnection({
      socketFactory: stubs.factory,
      connectionParams: { token: 't' },
      reconnect: POLICY,
    });
    const socket = stubs.latest();
    socket.open();
    const hello = socket.frames().find((frame) => frame.params?.path === '$rpc.hello');
    socket.receive({ id: hello?.id, result: { type: 'data', data: { json: { clientId: 'c', protocol: '7.2' } } } });
    await vi.waitFor(() => expect(connection?.state.value.status).toBe('disconnected'));
    const message = `the host speaks pi protocol 7.2, this pi speaks ${PROTOCOL_VERSION}`;
    expect(connection.state.value).toEqual({
      status: 'disconnected',
      reason: { code: VERSION_MISMATCH, message },
      retrying: false,
    });
    expect(socket.closedWith).toEqual({ code: 1008, reason: VERSION_MISMATCH });
    const { events, handlers } = recorder();
    connection.request(call('probe.echo'), handlers);
    await vi.waitFor(() => expect(events).toEqual([{ kind: 'error', code: VERSION_MISMATCH }]));
    vi.advanceTimersByTime(POLICY.maxDelayMs * 10);
    expect(stubs.sockets).toHaveLength(1);
  });

  it('params read before every attempt: a refused token that changed since is tried again; the same one twice ends it', async () => {
    let token = 'old';
    connection = new RpcConnection({
      socketFactory: stubs.factory,
      connectionParams: () => ({ token }),
      reconnect: POLICY,
    });
    /** Opens the latest socket, waits for its params, and refuses them; returns the token it sent. */
    const refuseLatest = async () => {
      const socket = stubs.latest();
      socket.open();
      await vi.waitFor(() => expect(socket.sent.length).toBeGreaterThan(0));
      socket.drop(4401, 'not_authorized');
      return JSON.parse(socket.sent[0] ?? '{}').data.token as string;
    };
    expect(await refuseLatest()).toBe('old');
    expect(connection.state.value).toMatchObject({ status: 'disconnected', retrying: true });
    token = 'new';
    vi.advanceTimersByTime(POLICY.maxDelayMs * 2);
    expect(await refuseLatest()).toBe('new');
    expect(connection.state.value).toMatchObject({ status: 'disconnected', retrying: true });
    vi.advanceTimersByTime(POLICY.maxDelayMs * 2);
    expect(await refuseLatest()).toBe('new');
    expect(connection.state.value).toMatchObject({ reason: { code: 'not_authorized' }, retrying: false });
    vi.advanceTimersByTime(POLICY.maxDelayMs * 10);
    expect(stubs.sockets).toHaveLength(3);
  });

  it('a close with code 4401 alone ends the connection as not_authorized without retrying', () => {
    connection = new RpcConnection({
      socketFactory: stubs.factory,
      connectionParams: { token: 'bad' },
      reconnect: POLICY,
    });
    stubs.latest().open();
    stubs.latest().drop(4401, 'not_authorized');
    expect(connection.state.value).toMatchObject({
      status: 'disconnected',
      reason: { code: 'not_authorized' },
      retrying: false,
    });
    vi.advanceTimersByTime(POLICY.maxDelayMs * 10);
    expect(stubs.sockets).toHaveLength(1);
  });

  it('a persistent subscription asked for after the connection ended for good fails instead of waiting forever', async () => {
    const live = connect(false);
    stubs.latest().drop(1006);
    const { events, handlers } = recorder();
    live.request(watch('catalog.$watch', true), handlers);
    await Promise.resolve();
    expect(events).toEqual([{ kind: 'error', code: 'disconnected' }]);
  });

  it('ending a subscription tells the server to stop it', () => {
    const live = connect();
    const stop = live.request(watch('catalog.$watch', true), recorder().handlers);
    const id = stubs.latest().frames().at(-1)?.id;
    stop();
    expect(stubs.latest().frames().at(-1)).toEqual({ id, method: 'subscription.stop' });
    expect(live.activeOperations).toBe(0);
  });

  it('answers PING with PONG and reconnects when the server asks to', async () => {
    const live = connect();
    stubs.latest().receive('PING');
    expect(stubs.latest().sent.at(-1)).toBe('PONG');
    stubs.latest().receive({ id: null, method: 'reconnect' });
    await vi.waitFor(() => expect(live.state.value.status).toBe('disconnected'));
    expect(live.state.value).toMatchObject({ retrying: true });
    vi.advanceTimersByTime(POLICY.maxDelayMs);
    expect(stubs.sockets).toHaveLength(2);
  });

  it('close fails every operation, persistent ones too, and never reconnects', async () => {
    const live = connect();
    const persistent = recorder();
    live.request(watch('catalog.$watch', true), persistent.handlers);
    live.close();
    expect(persistent.events).toEqual([{ kind: 'error', code: 'disconnected' }]);
    expect(live.state.value).toMatchObject({ status: 'disconnected', retrying: false });
    await Promise.resolve();
    vi.advanceTimersByTime(POLICY.maxDelayMs * 10);
    expect(stubs.sockets).toHaveLength(1);
  });

  it('ignores frames it cannot parse and replies for ids it does not know', () => {
    const live = connect();
    const { events, handlers } = recorder();
    live.request(call('probe.echo'), handlers);
    stubs.latest().receive('{not json');
    stubs.latest().receive({ id: 999, result: { type: 'data', data: { json: 1 } } });
    expect(events).toEqual([]);
    expect(live.activeOperations).toBe(1);
  });
});
