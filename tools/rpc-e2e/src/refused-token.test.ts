import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWSClient } from '@trpc/client';
import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CLOSE_CODES,
  NOT_AUTHORIZED_REASON,
  createRpcClient,
  listenWebSocket,
  type RpcClient,
  type SocketFactory,
  type WebSocketListener,
} from '@pi/transport-trpc';
import {
  Probe,
  TRANSPORTS,
  createProbe,
  eventually,
  nextValue,
  serveHost,
  startRpcFixture,
  type HostTransport,
  type RpcFixture,
} from '@pi/test-support';
import { serveRawSockets, type RawSocketServer } from './raw-socket';

const WRONG_TOKEN = JSON.stringify({ method: 'connectionParams', data: { token: 'wrong-token' } });

/** The same sockets with every error frame lost, so only the close code can tell the client why. */
function withoutErrorFrames(factory: SocketFactory): SocketFactory {
  return () => {
    const socket = factory();
    return {
      send: (data) => socket.send(data),
      close: (code, reason) => socket.close(code, reason),
      onOpen: (listener) => socket.onOpen(listener),
      onClose: (listener) => socket.onClose(listener),
      onMessage: (listener) => socket.onMessage((data) => data.includes('"error"') || listener(data)),
    };
  };
}

describe.each(TRANSPORTS)('a refused token over %s', (kind) => {
  let fixture: RpcFixture;
  let raw: RawSocketServer | undefined;
  let served: HostTransport | undefined;
  let client: RpcClient | undefined;
  afterEach(async () => {
    client?.close();
    await raw?.close();
    await served?.close();
    await fixture.close();
    [client, raw, served] = [undefined, undefined, undefined];
  });

  async function startHost() {
    fixture = await startRpcFixture(kind, { provide: (registry) => registry.provide(Probe, createProbe()) });
  }

  it('gets the refusal frame, then a close with code 4401 and the reason not_authorized', async () => {
    await startHost();
    raw = await serveRawSockets(kind, fixture.host);
    const socket = raw.open();
    await socket.opened;
    socket.sendText(WRONG_TOKEN);

    expect(await socket.closed).toEqual({ code: CLOSE_CODES.notAuthorized, reason: NOT_AUTHORIZED_REASON });
    expect(CLOSE_CODES.notAuthorized).toBe(4401);
    expect(JSON.parse(socket.received[0] ?? 'null')).toMatchObject({ id: null, error: expect.anything() });
    expect(socket.received[0]).toContain('"not_authorized"');
  });

  it('our client stops retrying on the close code alone, and reports not_authorized', async () => {
    await startHost();
    served = await serveHost(kind, fixture.host);
    client = createRpcClient({
      socketFactory: withoutErrorFrames(served.socketFactory),
      connectionParams: { token: 'wrong-token' },
      reconnect: { minDelayMs: 1, maxDelayMs: 2 },
    });
    const down = await nextValue(client.connection, (state) => state.status === 'disconnected');
    expect(down).toMatchObject({ retrying: false, reason: { code: 'not_authorized' } });
    expect(served.frames.received.some((frame) => frame.includes('"error"'))).toBe(true);
    // Many backoff periods later there is still only the one attempt.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(served.attempts).toBe(1);
  });
});

describe('a stock @trpc/client refused by the host (WebSocket only: it needs a URL)', () => {
  let fixture: RpcFixture;
  let listener: WebSocketListener | undefined;
  let directory: string | undefined;
  afterEach(async () => {
    await listener?.close();
    await fixture.close();
    if (directory !== undefined) await rm(directory, { recursive: true, force: true });
  });

  it('sees close code 4401 with the reason, and still retries: only its onClose can stop it', async () => {
    fixture = await startRpcFixture('websocket', { provide: (registry) => registry.provide(Probe, createProbe()) });
    directory = await mkdtemp(join(tmpdir(), 'pi-stock-'));
    const socketPath = join(directory, 'rpc.sock');
    listener = (await listenWebSocket(fixture.host, { socketPath }))._unsafeUnwrap();
    const closes: Array<{ code?: number; reason?: string }> = [];
    const stock = createWSClient({
      url: `ws+unix://${socketPath}:/`,
      WebSocket: WebSocket as never,
      connectionParams: { token: 'wrong-token' },
      retryDelayMs: () => 5,
      onClose: (cause) => closes.push({ code: cause?.code, reason: (cause as { reason?: string })?.reason }),
    });
    try {
      await eventually(() => closes.length >= 2);
      expect(closes[0]).toEqual({ code: 4401, reason: NOT_AUTHORIZED_REASON });
      expect(closes.every((close) => close.code === 4401)).toBe(true);
    } finally {
      await stock.close();
    }
  });
});
