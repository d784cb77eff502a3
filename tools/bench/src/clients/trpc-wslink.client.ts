import { createTRPCUntypedClient, createWSClient, wsLink } from '@trpc/client';
import { WebSocket } from 'ws';
import type { EchoClient } from './echo-client';

/** Stock `createWSClient` + `wsLink`, given `ws`'s class since Node 20 has no global WebSocket. */
export async function connectTrpcWsLink(url: string): Promise<EchoClient> {
  let opened!: () => void;
  const open = new Promise<void>((resolve) => (opened = resolve));
  const wsClient = createWSClient({
    url,
    WebSocket: WebSocket as unknown as typeof globalThis.WebSocket,
    onOpen: () => opened(),
  });
  const client = createTRPCUntypedClient({ links: [wsLink({ client: wsClient })] });
  await open;
  return {
    echo: (payload) => client.query('echo', payload),
    close: () => void wsClient.close(),
  };
}
