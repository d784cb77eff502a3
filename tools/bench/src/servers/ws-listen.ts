import { createServer } from 'node:http';
import { unlink } from 'node:fs/promises';
import { WebSocketServer } from 'ws';
import type { ListenOn } from '../server-protocol';

export interface ListeningWss {
  readonly wss: WebSocketServer;
  readonly url: string;
  close(): Promise<void>;
}

/** A plain `ws` server on a Unix socket or loopback port, set up the way pi's own listener is (no deflate). */
export async function listenWss(listenOn: ListenOn): Promise<ListeningWss> {
  const server = createServer((_request, response) => response.writeHead(426).end());
  const wss = new WebSocketServer({ server, perMessageDeflate: false, maxPayload: 16 * 1024 * 1024 });
  let url: string;
  if ('socketPath' in listenOn) {
    await unlink(listenOn.socketPath).catch(() => undefined);
    // A Unix socket refuses (EAGAIN) rather than queues connects beyond the backlog; the 1,000-subscriber fan-out
    // connects all at once, past node's default of 511.
    await new Promise<void>((resolve) => server.listen({ path: listenOn.socketPath, backlog: 4096 }, resolve));
    url = `ws+unix://${listenOn.socketPath}:/`;
  } else {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    url = `ws://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}/`;
  }
  return {
    wss,
    url,
    close: async () => {
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
