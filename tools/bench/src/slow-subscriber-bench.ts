import { setTimeout as sleep } from 'node:timers/promises';
import { connectPausablePiClient } from './clients/pi.client';
import { connectRawWs } from './clients/raw-ws.client';
import { BenchFanout } from './pi-services';
import type { ServerProcess } from './server-process';

/** The slow-subscriber row: changes of the ~1 KB fan-out cell published while one subscriber is paused. */
export const SLOW_CHANGES = 10_000;
export const SLOW_ROUNDS = 3;

export interface SlowSubscriberRound {
  /** Growth of the server's heapUsed + external (after full collections) over the burst, in bytes. */
  readonly memoryBytes: number;
  /** Growth of the server's RSS over the same burst, in bytes. */
  readonly rssBytes: number;
  /** What the server holds for the paused connection at the end (pi: `outboundStats().queuedBytes`; ws: `bufferedAmount`). */
  readonly queuedBytes: number;
}

/** Values published by a burst never repeat, since an equal `set()` is not a change (and fan-out rounds count up from 1). */
let nextValue = 1_000_000_000;

/**
 * Connect one subscriber (pi: `use()` the fan-out service and subscribe to its cell; raw-ws: a plain
 * connection, which the broadcast reaches), pause its socket, have the server publish `changes` values, and
 * read the server's settled memory against its memory before the subscriber connected.
 */
export async function measureSlowSubscriber(
  server: ServerProcess,
  kind: 'pi' | 'raw-ws',
  changes = SLOW_CHANGES,
): Promise<SlowSubscriberRound> {
  const before = await server.memory();
  const subscriber = kind === 'pi' ? await pausedPi(server.url) : await pausedRaw(server.url);
  const from = nextValue;
  nextValue += changes;
  try {
    subscriber.pause();
    const after = await server.burst(from, changes);
    return {
      memoryBytes: after.heapUsed + after.external - (before.heapUsed + before.external),
      rssBytes: after.rss - before.rss,
      queuedBytes: after.queuedBytes,
    };
  } finally {
    subscriber.resume();
    subscriber.close();
    // Let the server see the close (and free what it held) before the next measurement.
    await sleep(100);
  }
}

interface Paused {
  pause(): void;
  resume(): void;
  close(): void;
}

async function pausedPi(url: string): Promise<Paused> {
  const connection = await connectPausablePiClient(url);
  const service = await connection.client.use(BenchFanout);
  service.cell.subscribe(() => undefined);
  return { pause: connection.pause, resume: connection.resume, close: () => connection.client.close() };
}

async function pausedRaw(url: string): Promise<Paused> {
  const client = await connectRawWs(url);
  client.onBroadcast(() => undefined);
  return client;
}
