import type { Context } from '@pi/context';
import type { SummaryRequest } from '@pi/agent-contract';
import type { ModelProvider, ProviderEvent, ProviderRequest } from '../provider';

export interface WindowedProviderOptions {
  readonly id?: string;
  /** The model's `contextWindow`; absent: unknown. */
  readonly contextWindow?: number;
  /** The events answering the n-th request (from 0); by default the text "ok". */
  readonly answer?: (request: ProviderRequest, index: number) => readonly ProviderEvent[];
  /** Writes a summary; by default "summary of <n> messages". Null: the provider has no `summarize`. */
  readonly summarize?: ((request: SummaryRequest, context: Context) => Promise<string>) | null;
}

/** A provider for compaction tests: one model with a window, recorded requests and summary requests. */
export interface WindowedProvider extends ModelProvider {
  readonly requests: ProviderRequest[];
  readonly summaries: SummaryRequest[];
}

export const WINDOWED_MODEL = { provider: 'windowed', modelId: 'small' } as const;

export function windowedProvider(options: WindowedProviderOptions = {}): WindowedProvider {
  const id = options.id ?? WINDOWED_MODEL.provider;
  const requests: ProviderRequest[] = [];
  const summaries: SummaryRequest[] = [];
  const answer = options.answer ?? (() => text('ok'));
  const summarize =
    options.summarize === undefined
      ? async (request: SummaryRequest) => `summary of ${request.messages.length} messages`
      : options.summarize;
  const model = {
    provider: id,
    modelId: WINDOWED_MODEL.modelId,
    name: 'Small',
    reasoning: false,
    ...(options.contextWindow === undefined ? {} : { contextWindow: options.contextWindow }),
  };
  const provider: WindowedProvider = {
    id,
    name: 'Windowed',
    requests,
    summaries,
    models: () => [model],
    async *stream(request) {
      requests.push(structuredClone(request));
      for (const event of answer(request, requests.length - 1)) {
        await new Promise((resolve) => setImmediate(resolve));
        yield event;
      }
    },
  };
  if (summarize === null) return provider;
  return {
    ...provider,
    summarize: (request, context) => {
      summaries.push(structuredClone(request));
      return summarize(request, context);
    },
  };
}

/** An answer of `body` text. */
export function text(body: string): ProviderEvent[] {
  return [
    { type: 'text_delta', delta: body },
    { type: 'done', stopReason: 'stop' },
  ];
}
