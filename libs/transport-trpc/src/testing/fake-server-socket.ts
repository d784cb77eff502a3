import { EventEmitter } from 'node:events';

const OPEN = 1;
const CLOSING = 2;
const CLOSED = 3;

/** The server side of a socket, as `ws` presents it to a connection handler: what it writes is captured. */
export class FakeServerSocket extends EventEmitter {
  readyState = OPEN;
  /** What went out on the wire: sends while the socket is open (`ws` writes nothing once closing starts). */
  readonly frames: string[] = [];
  /** Every `close()` and `terminate()` call, with its arguments, in order. */
  readonly closes: unknown[][] = [];
  /** Whether the server reads the peer's frames (`pause` and `resume` turn it off and on). */
  reading = true;

  /** `peerAnswersClose: false` is a peer that never answers the closing handshake: only `terminate` ends it. */
  constructor(
    readonly clientId: string,
    private readonly options: { readonly peerAnswersClose?: boolean } = {},
  ) {
    super();
  }

  /** A text message from the peer, as `ws` delivers one (a Buffer, not binary). */
  receive(text: string): void {
    this.emit('message', Buffer.from(text), false);
  }

  pause(): void {
    this.reading = false;
  }

  resume(): void {
    this.reading = true;
  }

  send(data: unknown): void {
    if (this.readyState === OPEN) this.frames.push(String(data));
  }

  close(...args: unknown[]): void {
    this.closes.push(['close', ...args]);
    if (this.readyState !== OPEN) return;
    this.readyState = CLOSING;
    const [code = 1005, reason = ''] = args as [number?, string?];
    if (this.options.peerAnswersClose !== false) setImmediate(() => this.#closed(code, reason));
  }

  terminate(): void {
    this.closes.push(['terminate']);
    this.#closed(1006, '');
  }

  /** The client or the network closing the connection. */
  drop(): void {
    this.#closed(1006, '');
  }

  #closed(code: number, reason: string): void {
    if (this.readyState === CLOSED) return;
    this.readyState = CLOSED;
    this.emit('close', code, Buffer.from(reason));
  }
}
