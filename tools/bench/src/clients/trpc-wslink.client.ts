import { createTRPCUntypedClient, createWSClient, wsLink } from '@trpc/client';
import { WebSocket } from 'ws';
import type { FanoutValue } from '../payload';
import type { EchoClient } from './echo-client';
import type { PausableSubscriber } from './subscriber';

async function connect(url: string) {
  let opened!: () => void;
  const open = new Promise<void>((resolve) => (opened = resolve));
  const wsClient = createWSClient({
    url,
    WebSocket: WebSocket as unknown as typeof globalThis.WebSocket,
    onOpen: () => opened(),
  });
  const client = createTRPCUntypedClient({ links: [wsLink({ client: wsClient })] });
  await open;
  return { wsClient, client };
}

/** Stock `createWSClient` + `wsLink`, given `ws`'s class since Node 20 has no global WebSocket. */
export async function connectTrpcWsLink(url: string): Promise<EchoClient> {
  const { wsClient, client } = await connect(url);
  return {
    echo: (payload) => client.query('echo', payload),
    close: () => void wsClient.close(),
  };
}

/** The `cell` subscription through the same link; pausing stops the link's `ws` socket reading. */
export async function subscribeTrpcWsLink(
  url: string,
  onValue: (value: FanoutValue) => void,
): Promise<PausableSubscriber> {
  const { wsClient, client } = await connect(url);
  let started!: () => void;
  const live = new Promise<void>((resolve) => (started = resolve));
  const subscription = client.subscription('cell', undefined, {
    onStarted: () => started(),
    onData: (value) => onValue(value as FanoutValue),
  });
  await live;
  // The link's socket is `ws`'s class (given above), though typed as the DOM's.
  const socket = () => wsClient.connection?.ws as unknown as WebSocket | undefined;
  return {
    pause: () => socket()?.pause(),
    resume: () => socket()?.resume(),
    close: () => {
      subscription.unsubscribe();
      void wsClient.close();
    },
  };
}
