import { ProviderError, summaryPrompt, type ModelProvider, type ModelSpec } from '@pi/agent';
import type { Context } from '@pi/context';
import { anthropicMessagesBody, type AnthropicMessagesBody } from './anthropic-request';
import { AnthropicStreamAccumulator } from './anthropic-stream';
import { collectSummary } from './collect-summary';
import { endpoint, streamFromServer, type ServerConnection } from './server-stream';
import { checkIdleTimeout } from './stall-watch';

/** The API version pi speaks; the Messages API keeps old versions working, so it changes only with pi. */
export const ANTHROPIC_VERSION = '2023-06-01';

export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';

export interface AnthropicProviderOptions extends ServerConnection {
  readonly id: string;
  /** Without the API version: `/v1/messages` is appended (default https://api.anthropic.com). */
  readonly baseUrl: string;
  /** The catalogue entries this provider offers (its `provider` is set to `id`). */
  readonly models: readonly Omit<ModelSpec, 'provider'>[];
}

/** A provider for Anthropic's Messages API: streamed text, tool use, extended thinking, prompt caching, usage. */
export function createAnthropicProvider(options: AnthropicProviderOptions): ModelProvider {
  if (options.idleTimeoutMs !== undefined) checkIdleTimeout(options.idleTimeoutMs);
  const models: readonly ModelSpec[] = Object.freeze(
    options.models.map((model) => Object.freeze({ ...model, provider: options.id })),
  );
  const stream = (modelId: string, bodyFor: (model: ModelSpec) => AnthropicMessagesBody, context: Context) =>
    streamFromServer(
      options,
      () => {
        const model = models.find((candidate) => candidate.modelId === modelId);
        if (model === undefined) throw new ProviderError('unknown_model', `${options.name} has no model "${modelId}"`);
        return {
          url: endpoint(options.baseUrl, '/v1/messages'),
          headers: (apiKey) => ({
            'content-type': 'application/json',
            'anthropic-version': ANTHROPIC_VERSION,
            ...(apiKey ? { 'x-api-key': apiKey } : {}),
          }),
          body: JSON.stringify(bodyFor(model)),
          accumulator: new AnthropicStreamAccumulator(),
        };
      },
      context,
    );
  return {
    id: options.id,
    name: options.name,
    models: () => models,
    stream: (request, context) => stream(request.modelId, (model) => anthropicMessagesBody(request, model), context),
    summarize: (request, context) => {
      const prompt = summaryPrompt(request);
      return collectSummary(
        stream(
          request.modelId,
          (model) =>
            anthropicMessagesBody(
              {
                modelId: model.modelId,
                systemPrompt: prompt.system,
                messages: [{ role: 'user', content: [{ type: 'text', text: prompt.user }] }],
                tools: [],
                thinkingLevel: 'off',
              },
              model,
            ),
          context,
        ),
      );
    },
  };
}
