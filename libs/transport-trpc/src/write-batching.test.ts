import type { Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
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

  it('a lone frame is written before send returns, with no timer armed and no tick awaited', async () => {
    const { server, client, received, writes } = await connectedPair();
    closers.push(() => (client.terminate(), server.close()));
    const send = batchWrites(client);
    vi.useFakeTimers({ toFake: ['setTimeout', 'setImmediate', 'setInterval'] });
    try {
      send('lone');
      expect(writes.count).toBe(1);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
    await until(() => received.length === 1);
    send('the next lone frame, one tick later');
    expect(writes.count).toBe(2);
    await until(() => received.length === 2);
    expect(received).toEqual(['lone', 'the next lone frame, one tick later']);
  });

  it('frames after the first in a tick reach the socket in one write, in order', async () => {
    const { server, client, received, writes } = await connectedPair();
    closers.push(() => (client.terminate(), server.close()));
    const send = batchWrites(client);
    for (let index = 0; index < 10; index++) send(`frame ${index}`);
    expect(writes.count).toBe(1);
    await until(() => received.length === 10);
    expect(received).toEqual(Array.from({ length: 10 }, (_, index) => `frame ${index}`));
    expect(writes.count).toBe(2);
  });

  it("after a busy tick, the next tick's frames all wait for one write, the first as well", async () => {
    const { server, client, received, writes } = await connectedPair();
    closers.push(() => (client.terminate(), server.close()));
    const send = batchWrites(client);
    for (let index = 0; index < 10; index++) send(`busy ${index}`);
    await until(() => received.length === 10);
    const before = writes.count;
    for (let index = 0; index < 10; index++) send(`still busy ${index}`);
    expect(writes.count).toBe(before);
    await until(() => received.length === 20);
    expect(writes.count).toBe(before + 1);
    expect(received.slice(10)).toEqual(Array.from({ length: 10 }, (_, index) => `still busy ${index}`));
  });

  it('a connection that was busy writes a lone frame at once again one tick after it quietens', async () => {
    const { server, client, received, writes } = await connectedPair();
    closers.push(() => (client.terminate(), server.close()));
    const send = batchWrites(client);
    for (let index = 0; index < 10; index++) send(`busy ${index}`);
    await until(() => received.length === 10);
    send('held once, after a busy tick');
    const held = writes.count;
    await until(() => received.length === 11);
    expect(writes.count).toBe(held + 1);
    send('at once');
    expect(writes.count).toBe(held + 2);
    await until(() => received.length === 12);
    expect(received.slice(10)).toEqual(['held once, after a busy tick', 'at once']);
  });

  it('a long batch is written every BATCH_FRAMES frames, so the peer can start on it', async () => {
    const { server, client, received, writes } = await connectedPair();
    closers.push(() => (client.terminate(), server.close()));
    const send = batchWrites(client);
    send('warm-up: a busy tick');
    send('warm-up: a busy tick');
    await until(() => received.length === 2);
    const before = writes.count;
    const count = BATCH_FRAMES * 3 + 1;
    for (let index = 0; index < count; index++) send(`frame ${index}`);
    await until(() => received.length === count + 2);
    expect(received.slice(2)).toEqual(Array.from({ length: count }, (_, index) => `frame ${index}`));
    expect(writes.count - before).toBe(4);
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
