import { setTimeout as sleep } from 'node:timers/promises';
import { connectPiClient } from './clients/pi.client';
import { connectInWaves } from './connect-in-waves';
import { connectRawWs } from './clients/raw-ws.client';
import type { ServerProcess } from './server-process';

export const IDLE_CONNECTIONS = 200;

export interface IdleMemory {
  readonly heapBytes: number;
  readonly rssBytes: number;
}

/**
 * Server memory per idle connection: collect garbage in the server, open `count` connections (pi: connected,
 * hello answered, no service used), collect again, and divide the difference.
 */
export async function measureIdleMemory(
  server: ServerProcess,
  kind: 'pi' | 'raw-ws',
  count = IDLE_CONNECTIONS,
): Promise<IdleMemory> {
  const before = await server.memory();
  const clients = await connectInWaves<{ close(): void }>(count, () =>
    kind === 'pi' ? connectPiClient(server.url) : connectRawWs(server.url),
  );
  const after = await server.memory();
  for (const client of clients) client.close();
  // Let the server see the closes before the next measurement.
  await sleep(100);
  return { heapBytes: (after.heapUsed - before.heapUsed) / count, rssBytes: (after.rss - before.rss) / count };
}
