import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { BATCH_FRAMES, batchWrites } from './write-batching';

/** Waits (a few event-loop turns at a time) until `ready` holds. */
async function until(ready: () => boolean): Promise<void> {
  for (let turn = 0; !ready(); turn++) {
    if (turn > 1000) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A connected pair: `client` writes, the server collects what it reads. */
async function connectedPair() {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const received: string[] = [];
  server.on('connection', (socket) => socket.on('message', (data) => received.push(data.toString())));
  const { port } = server.address() as { port: number };
  const client = new WebSocket(`ws://127.0.0.1:${port}/`);
  await new Promise<void>((resolve) => client.once('open', () => resolve()));
  const stream = (client as unknown as { _socket: Socket })._socket;
  const writes = { count: 0 };
  const writev = stream._writev?.bind(stream);
  const write = stream._write.bind(stream);
  stream._writev = (chunks, callback) => {
    writes.count += 1;
    writev?.(chunks, callback);
  };
  stream._write = (chunk, encoding, callback) => {
    writes.count += 1;
    write(chunk, encoding, callback);
  };
  return { server, client, received, writes };
}

describe('batchWrites', () => {
  const closers: Array<() => void> = [];
  afterEach(() => {
    for (const close of closers.splice(0)) close();
  });

  it('frames sent in one tick reach the socket in one write, in order', async () => {
    const { server, client, received, writes } = await connectedPair();
    closers.push(() => (client.terminate(), server.close()));
    const send = batchWrites(client);
    for (let index = 0; index < 10; index++) send(`frame ${index}`);
    await until(() => received.length === 10);
    expect(received).toEqual(Array.from({ length: 10 }, (_, index) => `frame ${index}`));
    expect(writes.count).toBe(1);
  });

  it('a long batch is written every BATCH_FRAMES frames, so the peer can start on it', async () => {
    const { server, client, received, writes } = await connectedPair();
    closers.push(() => (client.terminate(), server.close()));
    const send = batchWrites(client);
    const count = BATCH_FRAMES * 3 + 1;
    for (let index = 0; index < count; index++) send(`frame ${index}`);
    await until(() => received.length === count);
    expect(received).toEqual(Array.from({ length: count }, (_, index) => `frame ${index}`));
    expect(writes.count).toBe(4);
  });

  it('without it, ws writes each frame on its own (what the batching saves)', async () => {
    const { server, client, received, writes } = await connectedPair();
    closers.push(() => (client.terminate(), server.close()));
    for (let index = 0; index < 10; index++) client.send(`frame ${index}`);
    await until(() => received.length === 10);
    expect(writes.count).toBe(10);
  });

  it('frames of later ticks are not held back by an earlier batch', async () => {
    const { server, client, received } = await connectedPair();
    closers.push(() => (client.terminate(), server.close()));
    const send = batchWrites(client);
    send('first');
    await until(() => received.length === 1);
    send('second');
    await until(() => received.length === 2);
    expect(received).toEqual(['first', 'second']);
  });
});
