import { newWebSocketRpcSession } from 'capnweb';
import { WebSocket } from 'ws';
import { installGlobalWebSocket } from '../global-websocket';
import type { CallPayload } from '../payload';
import type { EchoClient } from './echo-client';

interface EchoApi {
  echo(value: CallPayload): CallPayload;
}

/** Cap'n Web's WebSocket session on a `ws` socket (opened first, so calls are not queued behind the handshake). */
export async function connectCapnweb(url: string): Promise<EchoClient> {
  installGlobalWebSocket();
  const socket = new WebSocket(url, { perMessageDeflate: false });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  const stub = newWebSocketRpcSession<EchoApi>(socket as unknown as globalThis.WebSocket);
  return {
    echo: async (payload) => await stub.echo(payload),
    close: () => {
      stub[Symbol.dispose]();
      socket.close();
    },
  };
}
