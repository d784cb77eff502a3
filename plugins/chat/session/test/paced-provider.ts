import { ProviderError, type ModelProvider, type ProviderEvent } from '@pi/agent';
import type { Context } from '@pi/context';

/** A model provider whose one answer streams `deltas` and can stop part-way until the test resumes it. */
export interface PacedProvider extends ModelProvider {
  /** Resolves once `pauseAfter` deltas were streamed and the stream waits (for `resume` or the run's abort). */
  readonly paused: Promise<void>;
  resume(): void;
}

export const PACED_MODEL = { provider: 'paced', modelId: 'paced-1' } as const;

/** `count` words, "w0 w1 …", one delta each. */
export function words(count: number): string[] {
  return Array.from({ length: count }, (_, index) => `w${index} `);
}

export function pacedProvider(deltas: readonly string[], pauseAfter: number | null = null): PacedProvider {
  // A delta alone in its tick: a burst of one.
  return burstProvider(
    deltas.map((delta) => [delta]),
    pauseAfter,
  );
}

function untilResumedOrAborted(resumed: Promise<void>, context: Context): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new ProviderError('aborted', 'aborted'));
    context.abortSignal?.addEventListener('abort', onAbort, { once: true });
    void resumed.then(() => {
      context.abortSignal?.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}

/**
 * A model provider whose one answer streams `bursts`: the deltas of a burst in one tick, as the events of one socket
 * read are, and a turn of the event loop between bursts. It can stop after `pauseAfter` bursts until resumed.
 */
export function burstProvider(bursts: readonly (readonly string[])[], pauseAfter: number | null = null): PacedProvider {
  let reachedPause = (): void => undefined;
  const paused = new Promise<void>((resolve) => (reachedPause = resolve));
  let resume = (): void => undefined;
  const resumed = new Promise<void>((resolve) => (resume = resolve));
  return {
    id: PACED_MODEL.provider,
    name: 'Paced',
    models: () => [{ ...PACED_MODEL, name: 'Paced', reasoning: false }],
    paused,
    resume: () => resume(),
    async *stream(_request, context): AsyncGenerator<ProviderEvent> {
      for (const [index, burst] of bursts.entries()) {
        if (index === pauseAfter) {
          reachedPause();
          await untilResumedOrAborted(resumed, context);
        }
        // A turn of the event loop between bursts, as a network stream has between reads.
        await new Promise((resolve) => setImmediate(resolve));
        if (context.abortSignal?.aborted === true) throw new ProviderError('aborted', 'aborted');
        for (const delta of burst) yield { type: 'text_delta', delta };
      }
      yield { type: 'done', stopReason: 'stop' };
    },
  };
}

/** `count` bursts of words "w0 w1 …", the nth burst holding `sizes[n % sizes.length]` words. */
export function burstsOfWords(count: number, sizes: readonly number[]): string[][] {
  let word = 0;
  return Array.from({ length: count }, (_, burst) =>
    Array.from({ length: sizes[burst % sizes.length] ?? 1 }, () => `w${word++} `),
  );
}
