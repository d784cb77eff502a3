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

/** How a closed `wss:` connection's reason begins when the client did not trust the server's certificate. */
export const CERTIFICATE_NOT_TRUSTED = "the server's TLS certificate is not trusted";

/** Node's codes for a certificate the client refused (openssl's verify errors, and a name it was not issued for). */
const CERTIFICATE_CODE = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ALTNAME/;

/** Why the socket failed, in a sentence: said as the close reason of a socket that closed without one. */
function socketFailure(error: Error & { code?: string }): string {
  return error.code !== undefined && CERTIFICATE_CODE.test(error.code)
    ? `${CERTIFICATE_NOT_TRUSTED} (${error.message})`
    : error.message;
}

function wrap(socket: WebSocket): WireSocket {
  let failure = '';
  socket.on('error', (error) => (failure = socketFailure(error)));
  return {
    send: batchWrites(socket),
    close: (code, reason) => socket.close(code, reason),
    terminate: () => socket.terminate(),
    pause: () => socket.pause(),
    resume: () => socket.resume(),
    onOpen: (listener) => socket.on('open', listener),
    onMessage: (listener) => socket.on('message', (data) => listener(data.toString())),
    onClose: (listener) => socket.on('close', (code, reason) => listener(code, reason.toString() || failure)),
  };
}
