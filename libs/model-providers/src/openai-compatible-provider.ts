import { ProviderError, type ModelProvider, type ModelSpec } from '@pi/agent';
import type { Context } from '@pi/context';
import { ChatCompletionAccumulator } from './chat-completion-chunks';
import { chatCompletionBody, type ChatCompletionBody } from './openai-request';
import { collectSummary } from './collect-summary';
import { summaryCompletionBody } from './openai-summary';
import { endpoint, streamFromServer, type ServerConnection } from './server-stream';
import { checkIdleTimeout } from './stall-watch';

/** A model the server offers; `provider` is filled in from the provider's id. */
export interface OpenAICompatibleModel {
  readonly modelId: string;
  readonly name?: string;
  readonly reasoning?: boolean;
  /** The model's context window in tokens, when known (automatic compaction needs it). */
  readonly contextWindow?: number;
}

export interface OpenAICompatibleProviderOptions extends ServerConnection {
  readonly id: string;
  /** Up to and including the API version, e.g. `https://api.openai.com/v1`; `/chat/completions` is appended. */
  readonly baseUrl: string;
  readonly models: readonly OpenAICompatibleModel[];
}

/** A provider for any server speaking OpenAI's streaming chat-completions API (OpenAI, OpenRouter, vLLM, Ollama…). */
export function createOpenAICompatibleProvider(options: OpenAICompatibleProviderOptions): ModelProvider {
  if (options.idleTimeoutMs !== undefined) checkIdleTimeout(options.idleTimeoutMs);
  const models: readonly ModelSpec[] = Object.freeze(
    options.models.map((model) =>
      Object.freeze({
        provider: options.id,
        modelId: model.modelId,
        name: model.name ?? model.modelId,
        reasoning: model.reasoning ?? false,
        ...(model.contextWindow === undefined ? {} : { contextWindow: model.contextWindow }),
      }),
    ),
  );
  const stream = (modelId: string, bodyFor: (model: ModelSpec) => ChatCompletionBody, context: Context) =>
    streamFromServer(
      options,
      () => {
        const model = models.find((candidate) => candidate.modelId === modelId);
        if (model === undefined) throw new ProviderError('unknown_model', `${options.name} has no model "${modelId}"`);
        return {
          url: endpoint(options.baseUrl, '/chat/completions'),
          headers: (apiKey) => ({
            'content-type': 'application/json',
            ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
          }),
          body: JSON.stringify(bodyFor(model)),
          accumulator: new ChatCompletionAccumulator(),
        };
      },
      context,
    );
  return {
    id: options.id,
    name: options.name,
    models: () => models,
    stream: (request, context) => stream(request.modelId, (model) => chatCompletionBody(request, model), context),
    // A real request: the same endpoint, key, timeouts, retries, errors and redaction as a turn.
    summarize: (request, context) =>
      collectSummary(stream(request.modelId, (model) => summaryCompletionBody(request, model), context)),
  };
}
