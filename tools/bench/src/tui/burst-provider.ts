import { performance } from 'node:perf_hooks';
import type { ModelProvider, ProviderEvent } from '@pi/agent';

/** A model provider whose every answer streams `deltas`, one event-loop turn apart, noting when it sent the last. */
export interface BurstProvider extends ModelProvider {
  /** `performance.now()` when the latest answer's first and last delta were yielded (NaN before any). */
  readonly firstDeltaAt: number;
  readonly lastDeltaAt: number;
}

export function burstProvider(deltas: readonly string[]): BurstProvider {
  let firstDeltaAt = Number.NaN;
  let lastDeltaAt = Number.NaN;
  return {
    id: 'burst',
    name: 'Burst',
    models: () => [{ provider: 'burst', modelId: 'burst-1', name: 'Burst', reasoning: false }],
    get firstDeltaAt() {
      return firstDeltaAt;
    },
    get lastDeltaAt() {
      return lastDeltaAt;
    },
    async *stream(): AsyncGenerator<ProviderEvent> {
      for (const [index, delta] of deltas.entries()) {
        // A turn of the event loop between deltas, as a fast network stream has (and as the offline provider does).
        await new Promise((resolve) => setImmediate(resolve));
        const now = performance.now();
        if (index === 0) firstDeltaAt = now;
        if (index === deltas.length - 1) lastDeltaAt = now;
        yield { type: 'text_delta', delta };
      }
      yield { type: 'done', stopReason: 'stop' };
    },
  };
}

/** `count` words "w0 w1 …", one delta each. */
export function words(count: number): string[] {
  return Array.from({ length: count }, (_, index) => `w${index} `);
}

/** A model provider whose answers stream a word every `pieceMs` until `stop()` (or `maxPieces`), as a live model does. */
export interface PacedProvider extends ModelProvider {
  /** Ends the answer streaming now after its current word. */
  stop(): void;
}

export function pacedProvider(pieceMs: number, maxPieces = 10_000): PacedProvider {
  let stopped = false;
  return {
    id: 'paced',
    name: 'Paced',
    models: () => [{ provider: 'paced', modelId: 'paced-1', name: 'Paced', reasoning: false }],
    stop: () => void (stopped = true),
    async *stream(): AsyncGenerator<ProviderEvent> {
      stopped = false;
      for (let index = 0; index < maxPieces && !stopped; index += 1) {
        await new Promise((resolve) => setTimeout(resolve, pieceMs));
        yield { type: 'text_delta', delta: `w${index} ` };
      }
      yield { type: 'done', stopReason: 'stop' };
    },
  };
}
