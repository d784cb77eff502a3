import WebSocket from 'ws';
import type { SocketFactory, WireSocket } from './wire-socket';
import { batchWrites } from './write-batching';

export type ConnectAddress = { readonly socketPath: string } | { readonly url: string };

/**
 * A client socket on the `ws` package (Node 20 has no global WebSocket). The URL asks the server to wait for
 * connection params, which carry the token in the first message rather than in a URL or header. A `wss:` URL is TLS,
 * its certificate checked against `ca` when given.
 */
export function webSocketFactory(
  address: ConnectAddress,
  options: { maxPayload?: number; readonly ca?: string | Buffer } = {},
): SocketFactory {
  const base = 'socketPath' in address ? `ws+unix://${address.socketPath}:/` : address.url;
  const url = `${base}${base.includes('?') ? '&' : '?'}connectionParams=1`;
  // Masking guards against intermediaries a browser's page could fool; a Unix socket has none, and an all-zero mask
  // lets `ws` write the text as it is instead of copying and XOR-ing every frame; the same for a `ws+unix:` URL. Over
  // TCP, frames keep random masks.
  const unix = 'socketPath' in address || address.url.startsWith('ws+unix:');
  const masking = unix ? { generateMask: leaveMaskZero } : {};
  // A `wss:` server is verified against the system's CAs, or against this one alone (a deployment's own CA).
  const trust = options.ca === undefined ? {} : { ca: options.ca };
  return () =>
    wrap(new WebSocket(url, { perMessageDeflate: false, maxPayload: options.maxPayload, ...masking, ...trust }));
}

/** `ws` asks for each frame's mask to be written into this buffer; all zeros means the frame is not masked. */
function leaveMaskZero(mask: Buffer): void {
  mask.fill(0);
}

function wrap(socket: WebSocket): WireSocket {
  socket.on('error', () => undefined);
  return {
    send: batchWrites(socket),
    close: (code, reason) => socket.close(code, reason),
    terminate: () => socket.terminate(),
    pause: () => socket.pause(),
    resume: () => socket.resume(),
    onOpen: (listener) => socket.on('open', listener),
    onMessage: (listener) => socket.on('message', (data) => listener(data.toString())),
    onClose: (listener) => socket.on('close', (code, reason) => listener(code, reason.toString())),
  };
}
