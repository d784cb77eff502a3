import type { Context } from '@pi/context';
import {
  ProviderError,
  type ModelProvider,
  type ModelSpec,
  type ProviderEvent,
  type ProviderRequest,
} from '../provider';

/** One step of a scripted answer: an event to stream, a pause until a promise settles, or a failure. */
export type ScriptStep = ProviderEvent | { type: 'wait'; until: Promise<unknown> } | { type: 'fail'; error: Error };

export interface ScriptedProvider extends ModelProvider {
  /** Every request, in order, with the context it came with. */
  readonly requests: ReadonlyArray<{ request: ProviderRequest; context: Context }>;
}

export interface ScriptedProviderOptions {
  id?: string;
  modelIds?: readonly string[];
  /** One script per `stream` call, consumed in order. */
  turns: ReadonlyArray<readonly ScriptStep[]>;
}

/**
 * A fake model provider for tests: each `stream` call plays the next script. It honours the abort signal
 * like a real provider — before each step and while paused it rejects with ProviderError('aborted').
 * Running out of scripts fails the stream, so a test that expects fewer turns fails loudly.
 */
export function createScriptedProvider(options: ScriptedProviderOptions): ScriptedProvider {
  const id = options.id ?? 'scripted';
  const models: ModelSpec[] = (options.modelIds ?? ['model-a']).map((modelId) => ({
    provider: id,
    modelId,
    name: modelId,
    reasoning: false,
  }));
  const requests: Array<{ request: ProviderRequest; context: Context }> = [];
  let next = 0;
  return {
    id,
    name: `Scripted ${id}`,
    requests,
    models: () => models,
    async *stream(request, context) {
      requests.push({ request: structuredClone(request), context });
      const script = options.turns[next];
      next += 1;
      if (script === undefined) throw new ProviderError('malformed', `the script has no turn ${next}`);
      for (const step of script) {
        throwIfAborted(context);
        if (step.type === 'wait') await untilSettledOrAborted(step.until, context);
        else if (step.type === 'fail') throw step.error;
        else yield step;
      }
    },
  };
}

function throwIfAborted(context: Context): void {
  if (context.abortSignal?.aborted === true) throw new ProviderError('aborted', 'the request was aborted');
}

async function untilSettledOrAborted(promise: Promise<unknown>, context: Context): Promise<void> {
  const signal = context.abortSignal;
  let onAbort = (): void => undefined;
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(new ProviderError('aborted', 'the request was aborted'));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    throwIfAborted(context);
    await Promise.race([
      promise.then(
        () => undefined,
        () => undefined,
      ),
      aborted,
    ]);
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}
