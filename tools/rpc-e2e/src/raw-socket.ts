import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { listenWebSocket, loopbackFactory, type RpcHost, type WireSocket } from '@pi/transport-trpc';
import type { TransportKind } from '@pi/test-support';

/**
 * A client socket with no protocol code above it: a fuzz test writes any text (or, over WebSocket, any bytes)
 * and reads every frame the server sends back.
 */
export interface RawSocket {
  /** Every text frame the server sent, in order. */
  readonly received: readonly string[];
  readonly isClosed: boolean;
  /** Resolves once the socket is open. */
  readonly opened: Promise<void>;
  /** Resolves with the close code and reason when the connection ends, from either side. */
  readonly closed: Promise<{ readonly code: number; readonly reason: string }>;
  /** Sends one text frame; ignored once closed. */
  sendText(frame: string): void;
  /**
   * Sends bytes as a binary frame, or as a text frame that need not be UTF-8. False where the transport has no
   * such frames (loopback carries only strings).
   */
  sendBytes(bytes: Uint8Array, as: 'binary' | 'text'): boolean;
  /** Resolves with the first frame (already received or still to come) that `accept` takes; rejects on close. */
  until(accept: (frame: string) => boolean): Promise<string>;
  /** Hears every frame from now on, as it comes (e.g. to answer the server's pings). */
  onFrame(listener: (frame: string) => void): void;
  close(): void;
}

export interface RawSocketServer {
  open(): RawSocket;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Serves `host` once more over one transport, for raw sockets only; `maxPayload` as for the fixture. */
export async function serveRawSockets(
  kind: TransportKind,
  host: RpcHost,
  options: { maxPayload?: number } = {},
): Promise<RawSocketServer> {
  const opened = new Set<RawSocket>();
  const track = (socket: RawSocket) => {
    opened.add(socket);
    void socket.closed.then(() => opened.delete(socket));
    return socket;
  };
  const closeAll = () => {
    for (const socket of [...opened]) socket.close();
  };
  if (kind === 'loopback') {
    const factory = loopbackFactory(host, options);
    const close = async () => closeAll();
    return { open: () => track(rawLoopback(factory())), close, [Symbol.asyncDispose]: close };
  }
  const directory = await mkdtemp(join(tmpdir(), 'pi-raw-'));
  const socketPath = join(directory, 'rpc.sock');
  const listened = await listenWebSocket(host, { socketPath }, options);
  if (listened.isErr()) throw new Error(listened.error.message);
  const listener = listened.value;
  const close = async () => {
    closeAll();
    await listener.close();
    await rm(directory, { recursive: true, force: true });
  };
  return {
    open: () =>
      track(rawWebSocket(new WebSocket(`ws+unix://${socketPath}:/?connectionParams=1`, { perMessageDeflate: false }))),
    close,
    [Symbol.asyncDispose]: close,
  };
}

interface Plumbing {
  readonly received: string[];
  readonly listeners: Array<(frame: string) => void>;
  readonly waiters: Set<{
    accept: (frame: string) => boolean;
    resolve: (frame: string) => void;
    reject: (error: Error) => void;
  }>;
  closedWith: { code: number; reason: string } | undefined;
}

/** The parts every raw socket shares: the frame log, `until` and the close bookkeeping. */
function rawSocket(
  sendText: (frame: string) => void,
  sendBytes: RawSocket['sendBytes'],
  close: () => void,
  wire: (
    onOpen: () => void,
    onMessage: (frame: string) => void,
    onClose: (code: number, reason: string) => void,
  ) => void,
): RawSocket {
  const plumbing: Plumbing = { received: [], listeners: [], waiters: new Set(), closedWith: undefined };
  let markOpen: () => void = () => undefined;
  let markClosed: (value: { code: number; reason: string }) => void = () => undefined;
  const opened = new Promise<void>((resolve) => (markOpen = resolve));
  const closed = new Promise<{ code: number; reason: string }>((resolve) => (markClosed = resolve));
  wire(
    () => markOpen(),
    (frame) => {
      plumbing.received.push(frame);
      for (const listener of plumbing.listeners) listener(frame);
      for (const waiter of [...plumbing.waiters]) {
        if (!waiter.accept(frame)) continue;
        plumbing.waiters.delete(waiter);
        waiter.resolve(frame);
      }
    },
    (code, reason) => {
      plumbing.closedWith = { code, reason };
      for (const waiter of plumbing.waiters)
        waiter.reject(new Error(`The socket closed (${code} ${reason}) before the frame came`));
      plumbing.waiters.clear();
      markClosed({ code, reason });
    },
  );
  return {
    received: plumbing.received,
    get isClosed() {
      return plumbing.closedWith !== undefined;
    },
    opened,
    closed,
    sendText: (frame) => {
      if (plumbing.closedWith === undefined) sendText(frame);
    },
    sendBytes: (bytes, as) => plumbing.closedWith === undefined && sendBytes(bytes, as),
    until: (accept) => {
      const found = plumbing.received.find(accept);
      if (found !== undefined) return Promise.resolve(found);
      if (plumbing.closedWith !== undefined)
        return Promise.reject(new Error(`The socket is closed (${plumbing.closedWith.code})`));
      return new Promise((resolve, reject) => plumbing.waiters.add({ accept, resolve, reject }));
    },
    onFrame: (listener) => void plumbing.listeners.push(listener),
    close,
  };
}

function rawWebSocket(socket: WebSocket): RawSocket {
  // A refused or broken connection also reports `close`; without a listener an `error` would be thrown.
  socket.on('error', () => undefined);
  return rawSocket(
    (frame) => socket.send(frame),
    (bytes, as) => {
      socket.send(bytes, { binary: as === 'binary' });
      return true;
    },
    () => socket.terminate(),
    (onOpen, onMessage, onClose) => {
      socket.on('open', onOpen);
      socket.on('message', (data, isBinary) => onMessage(isBinary ? `<binary ${String(data)}>` : String(data)));
      socket.on('close', (code, reason) => onClose(code, reason.toString()));
    },
  );
}

function rawLoopback(socket: WireSocket): RawSocket {
  return rawSocket(
    (frame) => socket.send(frame),
    () => false,
    () => socket.close(1000, 'done'),
    (onOpen, onMessage, onClose) => {
      socket.onOpen(onOpen);
      socket.onMessage(onMessage);
      socket.onClose(onClose);
    },
  );
}
