import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { webSocketFactory, type ConnectAddress } from './websocket-client';

/** A server that records the raw bytes of every frame the client sends, and the text ws decoded from them. */
async function recordingServer(listen: (server: Server) => Promise<ConnectAddress>) {
  const server = createServer();
  const wss = new WebSocketServer({ server });
  const raw: Buffer[] = [];
  const texts: string[] = [];
  wss.on('connection', (socket, request) => {
    request.socket.on('data', (chunk: Buffer) => raw.push(chunk));
    socket.on('message', (data) => texts.push(data.toString()));
  });
  const address = await listen(server);
  return { address, raw, texts, close: () => new Promise((resolve) => (wss.close(), server.close(resolve))) };
}

/** The 4-byte masking key of a short client frame (payload under 126 bytes): bytes 2–5. */
function maskOf(frame: Buffer): Buffer {
  expect((frame[1] ?? 0) & 0x80).toBe(0x80);
  return frame.subarray(2, 6);
}

async function sendOne(address: ConnectAddress, texts: string[], text: string): Promise<void> {
  const socket = webSocketFactory(address)();
  await new Promise<void>((resolve) => socket.onOpen(resolve));
  socket.send(text);
  for (let turn = 0; turn < 200 && !texts.includes(text); turn++) await new Promise((r) => setTimeout(r, 5));
  socket.close();
}

describe('webSocketFactory', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it('sends unmasked (all-zero mask) frames over a Unix socket, which arrive intact', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'pi-mask-'));
    cleanups.push(() => rm(directory, { recursive: true, force: true }));
    const socketPath = join(directory, 's.sock');
    const recorder = await recordingServer(
      (server) => new Promise((resolve) => server.listen(socketPath, () => resolve({ socketPath }))),
    );
    cleanups.push(recorder.close);
    await sendOne(recorder.address, recorder.texts, 'over a unix socket');
    expect(recorder.texts).toContain('over a unix socket');
    const frame = recorder.raw.find((chunk) => chunk.includes(Buffer.from('over a unix socket')));
    expect(frame).toBeDefined();
    expect([...maskOf(frame as Buffer)]).toEqual([0, 0, 0, 0]);
  });

  it('sends unmasked frames to a Unix socket named by a ws+unix URL too', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'pi-mask-'));
    cleanups.push(() => rm(directory, { recursive: true, force: true }));
    const socketPath = join(directory, 's.sock');
    const recorder = await recordingServer(
      (server) =>
        new Promise((resolve) => server.listen(socketPath, () => resolve({ url: `ws+unix://${socketPath}:/` }))),
    );
    cleanups.push(recorder.close);
    await sendOne(recorder.address, recorder.texts, 'over a unix url');
    expect(recorder.texts).toContain('over a unix url');
    const frame = recorder.raw.find((chunk) => chunk.includes(Buffer.from('over a unix url')));
    expect(frame).toBeDefined();
    expect([...maskOf(frame as Buffer)]).toEqual([0, 0, 0, 0]);
  });

  it('keeps random masks over TCP', async () => {
    const recorder = await recordingServer(
      (server) =>
        new Promise((resolve) =>
          server.listen(0, '127.0.0.1', () => {
            const { port } = server.address() as { port: number };
            resolve({ url: `ws://127.0.0.1:${port}/` });
          }),
        ),
    );
    cleanups.push(recorder.close);
    await sendOne(recorder.address, recorder.texts, 'over tcp');
    expect(recorder.texts).toContain('over tcp');
    // ws unmasks the received bytes in place, so the frame is found by its text and judged by its mask key.
    const frame = recorder.raw.find((chunk) => chunk.includes(Buffer.from('over tcp')));
    expect(frame).toBeDefined();
    expect([...maskOf(frame as Buffer)]).not.toEqual([0, 0, 0, 0]);
  });
});
