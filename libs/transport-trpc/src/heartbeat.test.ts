import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_HEARTBEAT, heartbeatWindow } from './heartbeat';
import { RpcConnection } from './rpc-connection';
import type { ErrorShape, Operation, OperationHandlers } from './rpc-operation';
import { stubSocketFactory } from './testing/stub-socket';

const WINDOW = { idleMs: 1_000, timeoutMs: 500 };
const POLICY = { minDelayMs: 100, maxDelayMs: 100 };
/** The verdict waits for one `setImmediate`, which the fake clock runs a millisecond on. */
const NEXT_TURN_MS = 1;

const call = (path: string): Operation => ({ type: 'mutation', path, input: { json: null }, persistent: false });
const watch: Operation = { type: 'subscription', path: 'catalog.$watch', input: { json: null }, persistent: true };

function errors() {
  const codes: Array<string | undefined> = [];
  const handlers: OperationHandlers = {
    data: () => undefined,
    error: (shape: ErrorShape) => codes.push(shape.data?.remote?.code),
    complete: () => undefined,
  };
  return { codes, handlers };
}

describe('the client heartbeat', () => {
  let stubs: ReturnType<typeof stubSocketFactory>;
  let connection: RpcConnection | undefined;
  beforeEach(() => {
    // The heartbeat reads `performance.now()` and waits for one `setImmediate`: both move with the fake clock.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'performance'] });
    stubs = stubSocketFactory();
  });
  afterEach(() => {
    connection?.close();
    connection = undefined;
    vi.useRealTimers();
  });

  function connect(heartbeat: typeof WINDOW | false = WINDOW) {
    connection = new RpcConnection({
      socketFactory: stubs.factory,
      connectionParams: { token: 't' },
      reconnect: POLICY,
      heartbeat,
    });
    stubs.latest().open();
    stubs.latest().acceptHello();
    return connection;
  }

  const pings = () => stubs.latest().sent.filter((frame) => frame === 'PING').length;

  it('pings a host that has sent nothing for idleMs, and not before', () => {
    connect();
    vi.advanceTimersByTime(WINDOW.idleMs - 1);
    expect(pings()).toBe(0);
    vi.advanceTimersByTime(1);
    expect(pings()).toBe(1);
  });

  it('any frame from the host postpones the ping by a full idle period', () => {
    connect();
    vi.advanceTimersByTime(WINDOW.idleMs - 100);
    stubs.latest().receive({ id: 999, result: { type: 'data', data: { json: null } } });
    vi.advanceTimersByTime(WINDOW.idleMs - 1);
    expect(pings()).toBe(0);
    vi.advanceTimersByTime(1);
    expect(pings()).toBe(1);
  });

  it('a host that answers the ping stays connected and is pinged again after the next quiet period', () => {
    const live = connect();
    vi.advanceTimersByTime(WINDOW.idleMs);
    stubs.latest().receive('PONG');
    vi.advanceTimersByTime(WINDOW.timeoutMs);
    expect(live.state.value.status).toBe('connected');
    vi.advanceTimersByTime(WINDOW.idleMs - WINDOW.timeoutMs);
    expect(pings()).toBe(2);
    expect(stubs.sockets).toHaveLength(1);
  });

  it('a host silent past the window is dead: calls in flight fail, new ones fail fast, the socket is terminated', async () => {
    const live = connect();
    const inFlight = errors();
    live.request(call('probe.block'), inFlight.handlers);
    vi.advanceTimersByTime(WINDOW.idleMs + WINDOW.timeoutMs);
    expect(live.state.value.status).toBe('connected');
    vi.advanceTimersByTime(NEXT_TURN_MS);

    expect(inFlight.codes).toEqual(['disconnected']);
    expect(live.state.value).toEqual({
      status: 'disconnected',
      reason: { code: 'disconnected', message: 'The host sent nothing for 1500 ms' },
      retrying: true,
    });
    expect(stubs.latest().terminated).toBe(true);
    const late = errors();
    live.request(call('probe.echo'), late.handlers);
    await Promise.resolve();
    expect(late.codes).toEqual(['disconnected']);
  });

  it('a frame read in the turn after the deadline still counts: a stall of the client itself is not a dead host', () => {
    const live = connect();
    vi.advanceTimersByTime(WINDOW.idleMs + WINDOW.timeoutMs);
    stubs.latest().receive('PONG');
    vi.advanceTimersByTime(NEXT_TURN_MS);
    expect(live.state.value).toEqual({ status: 'connected', epoch: 1 });
    expect(stubs.latest().terminated).toBe(false);
  });

  it('after a silent host is dropped, the client reconnects with backoff and sends its watches again', () => {
    const live = connect();
    live.request(watch, errors().handlers);
    vi.advanceTimersByTime(WINDOW.idleMs + WINDOW.timeoutMs + NEXT_TURN_MS);
    expect(stubs.sockets).toHaveLength(1);

    vi.advanceTimersByTime(POLICY.maxDelayMs * 1.2);
    const next = stubs.latest();
    expect(stubs.sockets).toHaveLength(2);
    next.open();
    next.acceptHello();
    expect(live.state.value).toEqual({ status: 'connected', epoch: 2 });
    expect(next.frames().filter((frame) => frame.params?.path === 'catalog.$watch')).toHaveLength(1);
  });

  it('a host that opens the socket but never answers the hello is dropped the same way', () => {
    connection = new RpcConnection({
      socketFactory: stubs.factory,
      connectionParams: { token: 't' },
      reconnect: POLICY,
      heartbeat: WINDOW,
    });
    stubs.latest().open();
    vi.advanceTimersByTime(WINDOW.idleMs + WINDOW.timeoutMs + NEXT_TURN_MS);
    expect(connection.state.value).toMatchObject({ status: 'disconnected', retrying: true });
    expect(stubs.latest().terminated).toBe(true);
  });

  it('with the heartbeat off, a silent host is never pinged nor dropped', () => {
    const live = connect(false);
    vi.advanceTimersByTime(DEFAULT_HEARTBEAT.idleMs * 10);
    expect(pings()).toBe(0);
    expect(live.state.value.status).toBe('connected');
  });

  it('exposes the window in force: the default, a given one, or false', () => {
    expect(connect().heartbeat).toEqual(WINDOW);
    connection?.close();
    connection = new RpcConnection({ socketFactory: stubs.factory, connectionParams: {} });
    expect(connection.heartbeat).toEqual(DEFAULT_HEARTBEAT);
    expect(heartbeatWindow(false)).toBe(false);
  });

  it('refuses a window that is not a positive number of milliseconds', () => {
    expect(() => heartbeatWindow({ idleMs: 0, timeoutMs: 100 })).toThrow(RangeError);
    expect(() => heartbeatWindow({ idleMs: 100, timeoutMs: Number.NaN })).toThrow(RangeError);
  });
});
