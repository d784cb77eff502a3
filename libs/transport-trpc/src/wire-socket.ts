/**
 * The client's view of one connection: text frames in and out. A real WebSocket and the loopback
 * transport both present this, so the protocol client above them is the same code.
 */
export interface WireSocket {
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onOpen(listener: () => void): void;
  onMessage(listener: (data: string) => void): void;
  onClose(listener: (code: number, reason: string) => void): void;
}

/** Opens a fresh socket for each (re)connection attempt. */
export type SocketFactory = () => WireSocket;

/** Close codes the client reads meaning into. */
export const CLOSE_CODES = { normal: 1000, goingAway: 1001, tooBig: 1009, policy: 1008 } as const;
