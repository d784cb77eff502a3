/**
 * The client's view of one connection: text frames in and out. A real WebSocket and the loopback
 * transport both present this, so the protocol client above them is the same code.
 */
export interface WireSocket {
  send(data: string): void;
  close(code?: number, reason?: string): void;
  /** Ends at once, without waiting for the peer's half of the closing handshake; without it, `close` is used. */
  terminate?(): void;
  /** Stops reading frames (they stay buffered, and the peer's writes back up); for flow-control tests. */
  pause?(): void;
  /** Reads again, the held frames first. */
  resume?(): void;
  onOpen(listener: () => void): void;
  onMessage(listener: (data: string) => void): void;
  onClose(listener: (code: number, reason: string) => void): void;
}

/** Opens a fresh socket for each (re)connection attempt. */
export type SocketFactory = () => WireSocket;

/**
 * Close codes the client reads meaning into. `notAuthorized` (4401, an application code) is the host refusing
 * the token: a client must not retry it, which a close without a code (1005) could not say.
 */
export const CLOSE_CODES = {
  normal: 1000,
  goingAway: 1001,
  tooBig: 1009,
  policy: 1008,
  /** The host is too busy to take the connection now (too many awaiting authentication): retry later. */
  tryAgainLater: 1013,
  notAuthorized: 4401,
} as const;

/** The reason sent with `CLOSE_CODES.notAuthorized`: the error code, so a stock client can match on it too. */
export const NOT_AUTHORIZED_REASON = 'not_authorized';
