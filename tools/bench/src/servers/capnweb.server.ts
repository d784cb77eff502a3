import { RpcTarget, newWebSocketRpcSession } from 'capnweb';
import type { WebSocket } from 'ws';
import { serveBench } from '../server-harness';
import { installGlobalWebSocket } from '../global-websocket';
import { listenWss } from './ws-listen';

installGlobalWebSocket();

class EchoTarget extends RpcTarget {
  echo(value: unknown): unknown {
    return value;
  }
}

/** Cap'n Web 0.12: one RPC session per accepted `ws` socket, exposing `echo` as its main object. */
await serveBench(async (listenOn) => {
  const listening = await listenWss(listenOn);
  listening.wss.on('connection', (socket: WebSocket) => {
    newWebSocketRpcSession(socket as unknown as globalThis.WebSocket, new EchoTarget());
  });
  return { url: listening.url, close: () => listening.close() };
});
