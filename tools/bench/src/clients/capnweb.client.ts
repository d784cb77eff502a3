import { newWebSocketRpcSession, RpcStub } from 'capnweb';
import { WebSocket } from 'ws';
import { installGlobalWebSocket } from '../global-websocket';
import type { CallPayload, FanoutValue } from '../payload';
import type { CapnwebBenchApi } from '../peer-contracts';
import type { EchoClient } from './echo-client';
import type { PausableSubscriber } from './subscriber';

interface EchoApi extends CapnwebBenchApi {
  echo(value: CallPayload): CallPayload;
}

/** Cap'n Web's WebSocket session on a `ws` socket (opened first, so calls are not queued behind the handshake). */
async function connect(url: string) {
  installGlobalWebSocket();
  const socket = new WebSocket(url, { perMessageDeflate: false });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  return { socket, stub: newWebSocketRpcSession<EchoApi>(socket as unknown as globalThis.WebSocket) };
}

export async function connectCapnweb(url: string): Promise<EchoClient> {
  const { socket, stub } = await connect(url);
  return {
    echo: async (payload) => await stub.echo(payload),
    close: () => {
      stub[Symbol.dispose]();
      socket.close();
    },
  };
}

/** Passes the server a callback (a stub of a local function), which it calls with every change. */
export async function subscribeCapnweb(
  url: string,
  onValue: (value: FanoutValue) => void,
): Promise<PausableSubscriber> {
  const { socket, stub } = await connect(url);
  const callback = new RpcStub(onValue);
  await stub.subscribe(callback);
  return {
    pause: () => socket.pause(),
    resume: () => socket.resume(),
    close: () => {
      callback[Symbol.dispose]();
      stub[Symbol.dispose]();
      socket.close();
    },
  };
}
