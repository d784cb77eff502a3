import { BACKGROUND_CONTEXT } from '@pi/context';
import { createRpcClient, webSocketFactory, type RpcClient } from '@pi/transport-trpc';
import { BenchEcho } from '../pi-services';
import { PI_TOKEN } from '../pi-token';
import type { EchoClient } from './echo-client';

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

/** The product's typed proxy: `use()` the echo service, then call it like a local object. */
export async function connectPi(url: string): Promise<EchoClient> {
  const client = await connectPiClient(url);
  const echo = await client.use(BenchEcho);
  return {
    echo: (payload) => echo.echo(payload, BACKGROUND_CONTEXT),
    close: () => client.close(),
  };
}
