import { WebSocket } from 'ws';
import type { CallPayload, FanoutValue } from '../payload';
import type { EchoClient } from './echo-client';
import type { PausableSubscriber } from './subscriber';

/** The floor's client: ids matched to pending promises, nothing else. Also fetches the 1 MB value. */
export interface RawWsClient extends EchoClient {
  bulk(): Promise<unknown>;
  /** Every message without an id (fan-out broadcasts), parsed. */
  onBroadcast(listener: (value: unknown) => void): void;
  /** Stops (and restarts) reading the socket, as a slow subscriber would. */
  pause(): void;
  resume(): void;
}

export async function connectRawWs(url: string): Promise<RawWsClient> {
  const socket = new WebSocket(url, { perMessageDeflate: false });
  const pending = new Map<number, (value: unknown) => void>();
  const broadcastListeners: Array<(value: unknown) => void> = [];
  let nextId = 1;
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString()) as { id?: number; result?: unknown };
    if (message.id === undefined) {
      for (const listener of broadcastListeners) listener(message);
      return;
    }
    const resolve = pending.get(message.id);
    pending.delete(message.id);
    resolve?.(message.result);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  const request = (op: 'echo' | 'bulk', payload?: CallPayload) =>
    new Promise<unknown>((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      socket.send(JSON.stringify({ id, op, payload }));
    });
  return {
    echo: (payload) => request('echo', payload),
    bulk: () => request('bulk'),
    onBroadcast: (listener) => void broadcastListeners.push(listener),
    pause: () => socket.pause(),
    resume: () => socket.resume(),
    close: () => socket.close(),
  };
}

/** The floor has no subscription: a plain connection, which every broadcast reaches. */
export async function subscribeRawWs(url: string, onValue: (value: FanoutValue) => void): Promise<PausableSubscriber> {
  const client = await connectRawWs(url);
  client.onBroadcast((value) => onValue(value as FanoutValue));
  return client;
}
