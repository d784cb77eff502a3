import { performance } from 'node:perf_hooks';
import type { PiClient } from '@pi/client';

/** What a bystander saw while something else ran on the host: its calls answered and the slowest one. */
export interface BystanderFigures {
  readonly calls: number;
  readonly maxMs: number;
}

/**
 * Another presentation's cheap call (`chat.operation` of an id that never ran), made back to back until stopped,
 * on a connection of its own: how long the host leaves everyone else waiting.
 */
export function startBystander(client: PiClient): { stop(): Promise<BystanderFigures> } {
  let running = true;
  let calls = 0;
  let maxMs = 0;
  const loop = (async () => {
    while (running) {
      const start = performance.now();
      await client.call('chat', 'operation', [{ operationId: 'bench-bystander' }]);
      maxMs = Math.max(maxMs, performance.now() - start);
      calls += 1;
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { calls, maxMs };
    },
  };
}
