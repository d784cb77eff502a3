import type { IncomingMessage } from 'node:http';
import type { WebSocket } from 'ws';

/**
 * The server's side of one connection, as the wire server, the keep-alive and flow control use it: a `ws`
 * WebSocket or a loopback socket. A leaf of its own, so that the host and the files it is made of need not import
 * each other for it.
 */
export type ServerSocket = Pick<WebSocket, 'on' | 'once' | 'send' | 'close' | 'terminate' | 'readyState'> & {
  /** Bytes written and not yet sent: flow control holds watch frames back while it is high. */
  readonly bufferedAmount?: number;
  /** Stops reading the peer's frames (its writes back up); a connection whose requests wait for their turn. */
  pause?(): void;
  /** Reads again. */
  resume?(): void;
};

/** What a listener hands each accepted socket to: a host (`RpcHost`), or a router in front of one (a relay). */
export interface SocketAcceptor {
  accept(socket: ServerSocket, request: IncomingMessage): void;
}
