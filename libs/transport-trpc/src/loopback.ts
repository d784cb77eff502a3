import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { RpcHost } from './rpc-host';
import type { ServerSocket } from './server-socket';
import { DEFAULT_MAX_PAYLOAD } from './websocket-server';
import { CLOSE_CODES, type SocketFactory, type WireSocket } from './wire-socket';

const OPEN = 1;
const CLOSED = 3;

/**
 * An in-process transport for single-process hosts and tests. Every frame is the same JSON text a WebSocket
 * would carry, through the same server handler and client protocol code, delivered asynchronously; only the
 * socket is missing.
 */
export function loopbackFactory(host: RpcHost, options: { maxPayload?: number } = {}): SocketFactory {
  const maxPayload = options.maxPayload ?? DEFAULT_MAX_PAYLOAD;
  return () => {
    const server = new LoopbackServerSocket();
    const client = new LoopbackClientSocket(server, maxPayload);
    server.peer = client;
    queueMicrotask(() => {
      if (server.readyState !== OPEN) return;
      host.accept(
        server as unknown as ServerSocket,
        { url: '/?connectionParams=1', headers: { host: 'loopback' } } as IncomingMessage,
      );
      client.opened();
    });
    return client;
  };
}

class LoopbackServerSocket extends EventEmitter {
  readyState = OPEN;
  peer: LoopbackClientSocket | undefined;
  /** Frames from the client the server has not read yet: it stopped reading (`pause`), or is catching up. */
  readonly #held: string[] = [];
  #paused = false;

  /** A frame from the client, read now unless the server has stopped reading or older frames still wait. */
  receive(data: string): void {
    if (this.readyState !== OPEN) return;
    if (this.#paused) return void this.#held.push(data);
    if (this.#held.length === 0) return void this.emit('message', Buffer.from(data), false);
    this.#held.push(data);
    queueMicrotask(() => this.#readOne());
  }

  pause(): void {
    this.#paused = true;
  }

  resume(): void {
    if (!this.#paused) return;
    this.#paused = false;
    for (let held = this.#held.length; held > 0; held--) queueMicrotask(() => this.#readOne());
  }

  #readOne(): void {
    if (this.#paused || this.readyState !== OPEN) return;
    const data = this.#held.shift();
    if (data !== undefined) this.emit('message', Buffer.from(data), false);
  }

  /** Bytes sent and not yet read by the client: the loopback's socket buffer. */
  get bufferedAmount(): number {
    return this.peer?.unread ?? 0;
  }

  send(data: string): void {
    if (this.readyState !== OPEN) return;
    this.peer?.receive(String(data));
  }

  close(code: number = CLOSE_CODES.normal, reason = ''): void {
    if (this.readyState === CLOSED) return;
    this.readyState = CLOSED;
    queueMicrotask(() => {
      this.emit('close', code, Buffer.from(reason));
      this.peer?.closed(code, reason);
    });
  }

  terminate(): void {
    this.close(CLOSE_CODES.goingAway, 'terminated');
  }
}

class LoopbackClientSocket implements WireSocket {
  readonly #server: LoopbackServerSocket;
  readonly #maxPayload: number;
  readonly #open: Array<() => void> = [];
  readonly #message: Array<(data: string) => void> = [];
  readonly #close: Array<(code: number, reason: string) => void> = [];
  /** Frames the server sent that the client has not read yet, oldest first. */
  readonly #inbox: string[] = [];
  #unread = 0;
  #paused = false;
  #closed = false;

  constructor(server: LoopbackServerSocket, maxPayload: number) {
    this.#server = server;
    this.#maxPayload = maxPayload;
  }

  send(data: string): void {
    if (this.#closed) throw new Error('The loopback socket is closed');
    if (Buffer.byteLength(data) > this.#maxPayload) {
      this.#server.close(CLOSE_CODES.tooBig, 'Max payload size exceeded');
      return;
    }
    queueMicrotask(() => this.#server.receive(data));
  }

  close(code: number = CLOSE_CODES.normal, reason = ''): void {
    this.#server.close(code, reason);
  }

  terminate(): void {
    this.#server.terminate();
  }

  pause(): void {
    this.#paused = true;
  }

  resume(): void {
    if (!this.#paused) return;
    this.#paused = false;
    for (let held = this.#inbox.length; held > 0; held--) queueMicrotask(() => this.#deliverOne());
  }

  onOpen(listener: () => void): void {
    this.#open.push(listener);
  }

  onMessage(listener: (data: string) => void): void {
    this.#message.push(listener);
  }

  onClose(listener: (code: number, reason: string) => void): void {
    this.#close.push(listener);
  }

  opened(): void {
    for (const listener of this.#open) listener();
  }

  get unread(): number {
    return this.#unread;
  }

  /** A frame from the server, read a microtask later (or once resumed). */
  receive(data: string): void {
    if (this.#closed) return;
    this.#inbox.push(data);
    this.#unread += data.length;
    queueMicrotask(() => this.#deliverOne());
  }

  #deliverOne(): void {
    if (this.#paused || this.#closed) return;
    const data = this.#inbox.shift();
    if (data === undefined) return;
    this.#unread -= data.length;
    for (const listener of this.#message) listener(data);
  }

  closed(code: number, reason: string): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#inbox.length = 0;
    this.#unread = 0;
    for (const listener of this.#close) listener(code, reason);
  }
}
