import { ProviderError, summaryPrompt, type ModelProvider, type ModelSpec } from '@pi/agent';
import type { Context } from '@pi/context';
import { collectSummary } from './collect-summary';
import { geminiBody, type GeminiBody } from './gemini-request';
import { GeminiStreamAccumulator } from './gemini-stream';
import { endpoint, streamFromServer, type ServerConnection } from './server-stream';
import { checkIdleTimeout } from './stall-watch';

export const GEMINI_BASE_URL = 'https://generativelanguage.googleapis.com/v1beta';

export interface GeminiProviderOptions extends ServerConnection {
  readonly id: string;
  /** Up to and including the API version (default https://generativelanguage.googleapis.com/v1beta). */
  readonly baseUrl: string;
  readonly models: readonly Omit<ModelSpec, 'provider'>[];
}

/** A provider for Google's Gemini API (`streamGenerateContent` as SSE): text, function calls, thoughts, usage. */
export function createGeminiProvider(options: GeminiProviderOptions): ModelProvider {
  if (options.idleTimeoutMs !== undefined) checkIdleTimeout(options.idleTimeoutMs);
  const models: readonly ModelSpec[] = Object.freeze(
    options.models.map((model) => Object.freeze({ ...model, provider: options.id })),
  );
  const stream = (modelId: string, bodyFor: (model: ModelSpec) => GeminiBody, callsSoFar: number, context: Context) =>
    streamFromServer(
      options,
      () => {
        const model = models.find((candidate) => candidate.modelId === modelId);
        if (model === undefined) throw new ProviderError('unknown_model', `${options.name} has no model "${modelId}"`);
        return {
          url: endpoint(options.baseUrl, `/models/${encodeURIComponent(model.modelId)}:streamGenerateContent?alt=sse`),
          headers: (apiKey) => ({
            'content-type': 'application/json',
            ...(apiKey ? { 'x-goog-api-key': apiKey } : {}),
          }),
          body: JSON.stringify(bodyFor(model)),
          accumulator: new GeminiStreamAccumulator(callsSoFar),
        };
      },
      context,
    );
  return {
    id: options.id,
    name: options.name,
    models: () => models,
    stream: (request, context) => {
      // Ids pi gives Gemini's calls continue the conversation's count, so a replayed conversation gets the same ones.
      const calls = request.messages.reduce(
        (sum, message) =>
          sum + (message.role === 'assistant' ? message.content.filter((part) => part.type === 'tool_call').length : 0),
        0,
      );
      return stream(request.modelId, (model) => geminiBody(request, model), calls, context);
    },
    summarize: (request, context) => {
      const prompt = summaryPrompt(request);
      return collectSummary(
        stream(
          request.modelId,
          (model) =>
            geminiBody(
              {
                modelId: model.modelId,
                systemPrompt: prompt.system,
                messages: [{ role: 'user', content: [{ type: 'text', text: prompt.user }] }],
                tools: [],
                thinkingLevel: 'off',
              },
              model,
            ),
          0,
          context,
        ),
      );
    },
  };
}
