import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { err, ok } from 'neverthrow';
import { ServiceRegistry, type RemoteErrorEnvelope } from '@pi/remote';
import type { ConnectionParams } from './authentication';
import { createRpcClient, type RpcClient } from './rpc-client';
import { createRpcHost, type RpcHost } from './rpc-host';
import { webSocketFactory } from './websocket-client';
import { FakeServerSocket } from './testing/fake-server-socket';
import type { ServerSocket } from './server-socket';
import { relayAdmission, relayWebSocket, type RelayRoute, type RelayTarget } from './websocket-relay';
import type { WireSocket } from './wire-socket';
import { listenWebSocket, type WebSocketListener } from './websocket-server';

const CLIENT_TOKEN = 'the-users-token';
const TARGET_TOKEN = 'the-targets-token';

let directory: string | undefined;
const listeners: WebSocketListener[] = [];
const clients: RpcClient[] = [];
const hosts: RpcHost[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  for (const host of hosts.splice(0)) host.close();
  for (const listener of listeners.splice(0)) await listener.close();
  if (directory !== undefined) await rm(directory, { recursive: true, force: true });
  directory = undefined;
});

/** A target host on a Unix socket that admits only TARGET_TOKEN, and what each connection presented to it. */
async function target(): Promise<{ host: RpcHost; socketPath: string; presented: ConnectionParams[] }> {
  directory ??= await mkdtemp(join(tmpdir(), 'pi-relay-'));
  const presented: ConnectionParams[] = [];
  const host = createRpcHost({
    registry: new ServiceRegistry(),
    authenticate: (params) => {
      presented.push(params);
      return params?.['token'] === TARGET_TOKEN ? ok({ principal: 'relayed', claims: {} }) : err('Wrong token');
    },
    keepAlive: false,
  });
  hosts.push(host);
  const socketPath = join(directory, 'target.sock');
  listeners.push((await listenWebSocket(host, { socketPath }))._unsafeUnwrap());
  return { host, socketPath, presented };
}

const unreachable = (reason: string): RemoteErrorEnvelope => ({ code: 'target_unreachable', message: reason });

/** A relay on TCP whose route admits CLIENT_TOKEN and sends it to `to`. */
async function relay(to: RelayTarget | RemoteErrorEnvelope, paramsWaitMs?: number): Promise<string> {
  const route: RelayRoute = async (params) => {
    if ('code' in to) return err(to);
    return params?.['token'] === CLIENT_TOKEN ? ok(to) : err({ code: 'not_authorized', message: 'Wrong token' });
  };
  const listener = (
    await listenWebSocket(
      { accept: (socket) => relayWebSocket(socket, route, paramsWaitMs === undefined ? {} : { paramsWaitMs }) },
      { port: 0 },
    )
  )._unsafeUnwrap();
  listeners.push(listener);
  return listener.url;
}

function connect(url: string, token: string): RpcClient {
  const client = createRpcClient({
    socketFactory: webSocketFactory({ url }),
    connectionParams: { token },
    reconnect: false,
  });
  clients.push(client);
  return client;
}

/** The first settled state: connected, or the reason of the first disconnection. */
function settled(client: RpcClient): Promise<'connected' | RemoteErrorEnvelope> {
  return new Promise((resolve) => {
    client.connection.subscribe((state) => {
      if (state.status === 'connected') resolve('connected');
      if (state.status === 'disconnected') resolve(state.reason);
    });
  });
}

/** A raw client: sends `frames` once open, resolves with what came back and the close. */
function raw(url: string, frames: readonly string[]): Promise<{ received: string[]; code: number }> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`${url}?connectionParams=1`);
    const received: string[] = [];
    socket.on('open', () => frames.forEach((frame) => socket.send(frame)));
    socket.on('message', (data) => received.push(String(data)));
    socket.on('close', (code) => resolve({ received, code }));
  });
}

describe('relayWebSocket', () => {
  it('passes a client through to the target, which sees the relay’s params and never the client’s token', async () => {
    const to = await target();
    const url = await relay({
      address: { socketPath: to.socketPath },
      connectionParams: { token: TARGET_TOKEN },
      unreachable,
    });
    const connected = new Promise<string>((resolve) =>
      to.host.onClientConnect((_id, caller) => resolve(caller.principal)),
    );
    expect(await settled(connect(url, CLIENT_TOKEN))).toBe('connected');
    expect(await connected).toBe('relayed');
    expect(to.presented).toEqual([{ token: TARGET_TOKEN }]);
  });

  it('a client the route refuses as not authorized is closed with 4401 and told the route’s reason', async () => {
    const to = await target();
    const url = await relay({ address: { socketPath: to.socketPath }, connectionParams: {}, unreachable });
    expect(await settled(connect(url, 'guessed'))).toEqual({ code: 'not_authorized', message: 'Wrong token' });
    const refused = await raw(url, [JSON.stringify({ method: 'connectionParams', data: { token: 'guessed' } })]);
    expect(refused.code).toBe(4401);
    expect(to.presented).toEqual([]);
  });

  it('any other refusal reaches the client with its own code, and the target is never dialled', async () => {
    const url = await relay({ code: 'unknown_session', message: 'No session s-1' });
    expect(await settled(connect(url, CLIENT_TOKEN))).toEqual({ code: 'unknown_session', message: 'No session s-1' });
    expect((await raw(url, [JSON.stringify({ method: 'connectionParams', data: {} })])).code).toBe(1008);
  });

  it('a target that cannot be reached is the route’s unreachable envelope, with the socket’s reason', async () => {
    directory = await mkdtemp(join(tmpdir(), 'pi-relay-'));
    const url = await relay({
      address: { socketPath: join(directory, 'nobody.sock') },
      connectionParams: { token: TARGET_TOKEN },
      unreachable,
    });
    expect(await settled(connect(url, CLIENT_TOKEN))).toEqual({
      code: 'target_unreachable',
      message: expect.stringContaining('ENOENT'),
    });
  });

  it('the target closing closes the client, with the target’s code and reason', async () => {
    const to = await target();
    const url = await relay({
      address: { socketPath: to.socketPath },
      connectionParams: { token: TARGET_TOKEN },
      unreachable,
    });
    const client = connect(url, CLIENT_TOKEN);
    await client.whenConnected();
    const dropped = new Promise<RemoteErrorEnvelope>((resolve) =>
      client.connection.subscribe((state) => state.status === 'disconnected' && resolve(state.reason)),
    );
    to.host.close();
    expect(await dropped).toEqual({ code: 'disconnected', message: 'The connection closed: The host is closed' });
  });

  it('refuses a request sent before the connection params, malformed params, and a client that sends nothing', async () => {
    const to = await target();
    const url = await relay(
      { address: { socketPath: to.socketPath }, connectionParams: { token: TARGET_TOKEN }, unreachable },
      50,
    );
    const early = await raw(url, [JSON.stringify({ id: 1, method: 'query', params: { path: 'x' } })]);
    expect(early.code).toBe(4401);
    expect(JSON.parse(early.received[0] ?? '{}')).toMatchObject({
      id: null,
      error: { data: { remote: { code: 'not_authorized' } } },
    });
    expect((await raw(url, ['not json'])).code).toBe(1008);
    expect((await raw(url, [])).code).toBe(4401);
    expect(to.presented).toEqual([]);
  });

  it('stops reading the target while the client’s socket holds too much unsent, and reads again once it drained', async () => {
    const client = Object.assign(new FakeServerSocket('c-1'), { bufferedAmount: 0 });
    const target: { reading: boolean; opened: () => void; message: (data: string) => void } = {
      reading: true,
      opened: () => undefined,
      message: () => undefined,
    };
    const dialled: WireSocket = {
      send: () => undefined,
      close: () => undefined,
      pause: () => void (target.reading = false),
      resume: () => void (target.reading = true),
      onOpen: (listener) => void (target.opened = listener),
      onMessage: (listener) => void (target.message = listener),
      onClose: () => undefined,
    };
    let dials = 0;
    const route: RelayRoute = async () => ok({ address: { socketPath: '/unused' }, connectionParams: {}, unreachable });
    relayWebSocket(client as unknown as ServerSocket, route, {
      dial: () => {
        dials += 1;
        return dialled;
      },
      highWaterBytes: 100,
      lowWaterBytes: 10,
    });
    client.receive(JSON.stringify({ method: 'connectionParams', data: {} }));
    await expect.poll(() => dials).toBe(1);
    target.opened();

    target.message('a frame the client reads at once');
    expect(target.reading).toBe(true);
    client.bufferedAmount = 500;
    target.message('a frame that waits in the client’s socket');
    expect(target.reading).toBe(false);
    client.bufferedAmount = 50;
    await expect.poll(() => target.reading).toBe(false);
    client.bufferedAmount = 5;
    await expect.poll(() => target.reading).toBe(true);
    expect(client.frames).toEqual(['a frame the client reads at once', 'a frame that waits in the client’s socket']);
  });

  it('holds at most the admitted clients awaiting their route; one more is told to try again later', async () => {
    const admission = relayAdmission(1);
    const never: RelayRoute = () => new Promise(() => undefined);
    const first = new FakeServerSocket('c-1');
    relayWebSocket(first as unknown as ServerSocket, never, { admission });
    const second = new FakeServerSocket('c-2');
    relayWebSocket(second as unknown as ServerSocket, never, { admission });
    expect(second.closes).toEqual([['close', 1013, 'too many connections awaiting authentication']]);
    first.drop();
    const third = new FakeServerSocket('c-3');
    relayWebSocket(third as unknown as ServerSocket, never, { admission });
    expect(third.closes).toEqual([]);
    third.drop();
  });
});
