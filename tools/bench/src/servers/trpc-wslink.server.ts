import { initTRPC } from '@trpc/server';
import { applyWSSHandler } from '@trpc/server/adapters/ws';
import { z } from 'zod';
import { serveBench } from '../server-harness';
import { listenWss } from './ws-listen';

/** Stock tRPC over its own ws adapter: default JSON (no transformer), one `echo` query, no keep-alive. */
const t = initTRPC.create();
const router = t.router({
  echo: t.procedure.input(z.unknown()).query(({ input }) => input),
});

await serveBench(async (listenOn) => {
  const listening = await listenWss(listenOn);
  const handler = applyWSSHandler({ wss: listening.wss, router, keepAlive: { enabled: false } });
  return {
    url: listening.url,
    close: async () => {
      handler.broadcastReconnectNotification();
      await listening.close();
    },
  };
});
