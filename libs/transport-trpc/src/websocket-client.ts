import WebSocket from 'ws';
import type { SocketFactory, WireSocket } from './wire-socket';
import { batchWrites } from './write-batching';

export type ConnectAddress = { readonly socketPath: string } | { readonly url: string };

/**
 * A client socket on the `ws` package (Node 20 has no global WebSocket). The URL asks the server to wait for
 * connection params, which carry the token in the first message rather than in a URL or header.
 */
export function webSocketFactory(address: ConnectAddress, options: { maxPayload?: number } = {}): SocketFactory {
  const base = 'socketPath' in address ? `ws+unix://${address.socketPath}:/` : address.url;
  const url = `${base}${base.includes('?') ? '&' : '?'}connectionParams=1`;
  return () => wrap(new WebSocket(url, { perMessageDeflate: false, maxPayload: options.maxPayload }));
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
