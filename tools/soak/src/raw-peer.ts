import { WebSocket } from 'ws';

/** How the host closed a raw peer's socket. */
export interface PeerClose {
  readonly code: number;
  readonly reason: string;
}

/**
 * A raw WebSocket peer of a session, built on stock `ws` (no pi client code): it sends whatever frames it is given,
 * answers the host's `PING` with `PONG`, and can wait for a `PONG` of its own as a barrier (the host answers a
 * `PING` in order, after every frame before it was read).
 */
export interface RawPeer {
  readonly socket: WebSocket;
  /** Resolves when the socket closes, with the host's close code. */
  readonly closed: Promise<PeerClose>;
  isOpen(): boolean;
  send(data: string | Uint8Array, binary?: boolean): void;
  /** Sends `PING` and resolves true at the `PONG`, false if the socket closes or `timeoutMs` passes first. */
  barrier(timeoutMs: number): Promise<boolean>;
  /** Frames received so far. */
  received(): number;
  terminate(): void;
}

export interface RawPeerOptions {
  /** Sent as the connection params; leave out to send nothing (an unauthenticated peer). */
  readonly token?: string;
  /** Each text frame received, e.g. to scan replies. */
  readonly onFrame?: (text: string) => void;
  /** Answer the host's PING (default true). */
  readonly answerPings?: boolean;
}

const OPEN_TIMEOUT_MS = 30_000;
const CONNECTION_PARAMS_URL = '/?connectionParams=1';

/** Opens `ws+unix://<socket>:/?connectionParams=1` and, given a token, sends the connection params frame. */
export async function openRawPeer(socketPath: string, options: RawPeerOptions = {}): Promise<RawPeer> {
  const socket = new WebSocket(`ws+unix://${socketPath}:${CONNECTION_PARAMS_URL}`, {
    handshakeTimeout: OPEN_TIMEOUT_MS,
    // No frame-size limit of our own: what the host sends, the peer reads.
    maxPayload: 0,
  });
  let count = 0;
  const pongs: (() => void)[] = [];
  const closed = new Promise<PeerClose>((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  socket.on('error', () => undefined);
  socket.on('message', (raw, isBinary) => {
    count++;
    if (isBinary) return;
    const text = raw.toString();
    if (text === 'PONG') return void pongs.shift()?.();
    if (text === 'PING' && options.answerPings !== false) return socket.send('PONG');
    options.onFrame?.(text);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('close', (code) => reject(new Error(`The socket closed (${code}) before it opened`)));
    socket.once('error', reject);
  });
  if (options.token !== undefined) {
    socket.send(JSON.stringify({ method: 'connectionParams', data: { token: options.token } }));
  }
  const isOpen = () => socket.readyState === WebSocket.OPEN;
  return {
    socket,
    closed,
    isOpen,
    send(data, binary = false) {
      if (isOpen()) socket.send(data, { binary });
    },
    barrier(timeoutMs) {
      if (!isOpen()) return Promise.resolve(false);
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(false), timeoutMs);
        const settle = (value: boolean) => {
          clearTimeout(timer);
          resolve(value);
        };
        pongs.push(() => settle(true));
        void closed.then(() => settle(false));
        socket.send('PING');
      });
    },
    received: () => count,
    terminate: () => socket.terminate(),
  };
}
