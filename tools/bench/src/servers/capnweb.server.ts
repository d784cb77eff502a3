import { RpcTarget, newWebSocketRpcSession } from 'capnweb';
import type { WebSocket } from 'ws';
import { fanoutValue } from '../payload';
import type { CapnwebCellListener } from '../peer-contracts';
import { serveBench } from '../server-harness';
import { installGlobalWebSocket } from '../global-websocket';
import { listenWss } from './ws-listen';

installGlobalWebSocket();

/** Every client's retained callback. */
const listeners = new Set<CapnwebCellListener>();

class BenchTarget extends RpcTarget {
  echo(value: unknown): unknown {
    return value;
  }

  /** Cap'n Web's callback pattern: keep a `dup()` of the stub (params are disposed when the call returns). */
  subscribe(listener: CapnwebCellListener): void {
    const kept = listener.dup();
    listeners.add(kept);
    kept.onRpcBroken(() => {
      listeners.delete(kept);
      kept[Symbol.dispose]();
    });
  }
}

/**
 * Cap'n Web 0.12: one RPC session per accepted `ws` socket, exposing `echo` and `subscribe` as its main object.
 * A change calls every retained callback; the server does not await the result, so it disposes the returned
 * promise, as Cap'n Web asks of a promise nobody awaits.
 */
await serveBench(async (listenOn) => {
  const listening = await listenWss(listenOn);
  listening.wss.on('connection', (socket: WebSocket) => {
    newWebSocketRpcSession(socket as unknown as globalThis.WebSocket, new BenchTarget());
  });
  return {
    url: listening.url,
    publish(round) {
      const value = fanoutValue(round);
      for (const listener of listeners) listener(value)[Symbol.dispose]();
    },
    queuedBytes: () => Math.max(0, ...[...listening.wss.clients].map((client) => client.bufferedAmount)),
    close: () => listening.close(),
  };
});
