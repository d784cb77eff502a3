import { BACKGROUND_CONTEXT } from '@pi/context';
import { createRpcClient, webSocketFactory, type RpcClient, type WireSocket } from '@pi/transport-trpc';
import type { FanoutValue } from '../payload';
import { BenchEcho, BenchFanout } from '../pi-services';
import { PI_TOKEN } from '../pi-token';
import type { EchoClient } from './echo-client';
import type { PausableSubscriber } from './subscriber';

/** A connected pi client (hello done), without reconnects: a dropped bench connection is an error. */
export async function connectPiClient(url: string): Promise<RpcClient> {
  const client = createRpcClient({
    socketFactory: webSocketFactory({ url }),
    connectionParams: { token: PI_TOKEN },
    reconnect: false,
  });
  await client.whenConnected();
  return client;
}

/** A pi client whose socket can stop reading (`WireSocket.pause`), as a slow subscriber's would. */
export interface PausablePiClient {
  readonly client: RpcClient;
  pause(): void;
  resume(): void;
}

export async function connectPausablePiClient(url: string): Promise<PausablePiClient> {
  const factory = webSocketFactory({ url });
  let socket: WireSocket | undefined;
  const client = createRpcClient({
    socketFactory: () => (socket = factory()),
    connectionParams: { token: PI_TOKEN },
    reconnect: false,
    // A paused client hears nothing: its own dead-host check must not fire while it is paused.
    heartbeat: false,
  });
  await client.whenConnected();
  return { client, pause: () => socket?.pause?.(), resume: () => socket?.resume?.() };
}

/** `use()` the fan-out service and subscribe to its cell, on a client that can pause. */
export async function subscribePi(url: string, onValue: (value: FanoutValue) => void): Promise<PausableSubscriber> {
  const connection = await connectPausablePiClient(url);
  const service = await connection.client.use(BenchFanout);
  service.cell.subscribe(onValue);
  return { pause: connection.pause, resume: connection.resume, close: () => connection.client.close() };
}

/** The product's typed proxy: `use()` the echo service, then call it like a local object. */
export async function connectPi(url: string): Promise<EchoClient> {
  const client = await connectPiClient(url);
  const echo = await client.use(BenchEcho);
  return {
    echo: (payload) => echo.echo(payload, BACKGROUND_CONTEXT),
    close: () => client.close(),
  };
}
