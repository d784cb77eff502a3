import type { SocketFactory, WireSocket } from '../wire-socket';

/**
 * A client socket the test plays the server for: it records what the client sends and delivers what the
 * test says the server sent, with no network and no tRPC server.
 */
export class StubSocket implements WireSocket {
  readonly sent: string[] = [];
  closedWith: { code: number; reason: string } | undefined;
  terminated = false;
  readonly #open: Array<() => void> = [];
  readonly #message: Array<(data: string) => void> = [];
  readonly #close: Array<(code: number, reason: string) => void> = [];

  send(data: string): void {
    if (this.closedWith !== undefined) throw new Error('The stub socket is closed');
    this.sent.push(data);
  }

  /** The client closing: the close event follows on a later microtask, as a real socket's would. */
  close(code = 1000, reason = ''): void {
    if (this.closedWith !== undefined) return;
    this.closedWith = { code, reason };
    queueMicrotask(() => this.#emitClose(code, reason));
  }

  /** The client giving up on the peer: closed at once, reported as an abnormal close (1006), as `ws` does. */
  terminate(): void {
    if (this.closedWith !== undefined) return;
    this.terminated = true;
    this.closedWith = { code: 1006, reason: '' };
    queueMicrotask(() => this.#emitClose(1006, ''));
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

  open(): void {
    for (const listener of this.#open) listener();
  }

  /** A frame from the server, as JSON (or raw text such as `PING`). */
  receive(message: unknown): void {
    const text = typeof message === 'string' ? message : JSON.stringify(message);
    for (const listener of this.#message) listener(text);
  }

  /** The server or the network ending the connection. */
  drop(code = 1006, reason = ''): void {
    if (this.closedWith !== undefined) return;
    this.closedWith = { code, reason };
    this.#emitClose(code, reason);
  }

  /** What the client sent, parsed; `PONG` and other bare words are left out. */
  frames(): Array<{ id?: number; method?: string; params?: { path: string; input: unknown }; data?: unknown }> {
    return this.sent.filter((text) => text.startsWith('{')).map((text) => JSON.parse(text));
  }

  /** Answers the client's `$rpc.hello`, which makes the connection `connected`. */
  acceptHello(clientId = 'client-1'): void {
    const hello = this.frames().find((frame) => frame.params?.path === '$rpc.hello');
    if (hello === undefined) throw new Error('The client sent no hello');
    this.receive({ id: hello.id, result: { type: 'data', data: { json: { clientId } } } });
  }

  #emitClose(code: number, reason: string): void {
    for (const listener of this.#close) listener(code, reason);
  }
}

/** A factory that hands out stub sockets and keeps them, newest last. */
export function stubSocketFactory(): { factory: SocketFactory; sockets: StubSocket[]; latest(): StubSocket } {
  const sockets: StubSocket[] = [];
  return {
    factory: () => {
      const socket = new StubSocket();
      sockets.push(socket);
      return socket;
    },
    sockets,
    latest() {
      const socket = sockets.at(-1);
      if (socket === undefined) throw new Error('No socket was opened');
      return socket;
    },
  };
}
