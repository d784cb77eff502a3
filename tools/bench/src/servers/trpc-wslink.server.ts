import { EventEmitter, on } from 'node:events';
import { initTRPC } from '@trpc/server';
import { applyWSSHandler } from '@trpc/server/adapters/ws';
import { z } from 'zod';
import { fanoutValue, type FanoutValue } from '../payload';
import { serveBench } from '../server-harness';
import { listenWss } from './ws-listen';

/** Every `publish` of the fan-out cell, heard by each open `cell` subscription. */
const changes = new EventEmitter<{ change: [FanoutValue] }>();
// One listener per subscribed client: the 100-subscriber fan-out is no leak.
changes.setMaxListeners(0);

/**
 * Stock tRPC over its own ws adapter: default JSON (no transformer), one `echo` query, no keep-alive, and the
 * fan-out cell as a subscription: an async generator yielding each change, the way tRPC's docs wire an event
 * emitter (`on(emitter, event, { signal })`; the adapter aborts the signal when the client goes away).
 */
const t = initTRPC.create();
const router = t.router({
  echo: t.procedure.input(z.unknown()).query(({ input }) => input),
  cell: t.procedure.subscription(async function* ({ signal }) {
    for await (const [value] of on(changes, 'change', { signal })) yield value as FanoutValue;
  }),
});

await serveBench(async (listenOn) => {
  const listening = await listenWss(listenOn);
  const handler = applyWSSHandler({ wss: listening.wss, router, keepAlive: { enabled: false } });
  return {
    url: listening.url,
    publish: (round) => void changes.emit('change', fanoutValue(round)),
    queuedBytes: () => Math.max(0, ...[...listening.wss.clients].map((client) => client.bufferedAmount)),
    close: async () => {
      handler.broadcastReconnectNotification();
      await listening.close();
    },
  };
});
