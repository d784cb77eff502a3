import { setTimeout as sleep } from 'node:timers/promises';
import { SUBSCRIBE } from './clients/subscriber';
import type { ServerProcess } from './server-process';

/** The slow-subscriber row: changes of the ~1 KB fan-out cell published while one subscriber is paused. */
export const SLOW_CHANGES = 10_000;
/** pi again with twice the changes: memory held for a paused subscriber must not grow with them. */
export const SLOW_BOUND_CHANGES = 20_000;
export const SLOW_ROUNDS = 3;

export interface SlowSubscriberRound {
  /** Growth of the server's heapUsed + external (after full collections) over the burst, in bytes. */
  readonly memoryBytes: number;
  /** Growth of the server's RSS over the same burst, in bytes. */
  readonly rssBytes: number;
  /**
   * What the server holds for the paused connection at the end (pi: `outboundStats().queuedBytes`; the others:
   * their `ws` socket's `bufferedAmount`), or undefined when the server cannot tell.
   */
  readonly queuedBytes: number | undefined;
}

/** Values published by a burst never repeat, since an equal `set()` is not a change (and fan-out rounds count up from 1). */
let nextValue = 1_000_000_000;

/**
 * Connect one subscriber to the server's fan-out cell in its library's own way (pi: `use()` the service and
 * subscribe to its cell; tRPC: the `cell` subscription; Cap'n Web and birpc: a callback the server calls;
 * raw-ws: a plain connection, which the broadcast reaches), pause its socket, have the server publish `changes`
 * values, and read the server's settled memory against its memory before the subscriber connected.
 */
export async function measureSlowSubscriber(
  server: ServerProcess,
  changes = SLOW_CHANGES,
): Promise<SlowSubscriberRound> {
  const before = await server.memory();
  const subscriber = await SUBSCRIBE[server.system](server.url, () => undefined);
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
