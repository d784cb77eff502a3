import type { ModelProvider, ProviderLogin } from '@pi/agent';
import { ChatCompletionAccumulator } from './chat-completion-chunks';
import { chatCompletionBody } from './openai-request';
import { createServerProvider, type ServerModel } from './server-provider';
import { endpoint, type ServerConnection } from './server-stream';

/** A model the server offers; its name defaults to its id, `reasoning` to false. */
export type OpenAICompatibleModel = Omit<ServerModel, 'name' | 'reasoning'> & {
  readonly name?: string;
  readonly reasoning?: boolean;
};

export interface OpenAICompatibleProviderOptions extends ServerConnection {
  readonly id: string;
  /** Up to and including the API version, e.g. `https://api.openai.com/v1`; `/chat/completions` is appended. */
  readonly baseUrl: string;
  readonly models: readonly OpenAICompatibleModel[];
  /** How a person signs in instead of typing a key, when the provider offers it. */
  readonly login?: ProviderLogin;
}

/** A provider for any server speaking OpenAI's streaming chat-completions API (OpenAI, OpenRouter, vLLM, Ollama…). */
export function createOpenAICompatibleProvider(options: OpenAICompatibleProviderOptions): ModelProvider {
  const models = options.models.map((model) => ({
    ...model,
    name: model.name ?? model.modelId,
    reasoning: model.reasoning ?? false,
  }));
  return createServerProvider({ ...options, models }, (request, model) => ({
    url: endpoint(options.baseUrl, '/chat/completions'),
    headers: (apiKey) => ({
      'content-type': 'application/json',
      ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
    }),
    body: JSON.stringify(chatCompletionBody(request, model)),
    accumulator: new ChatCompletionAccumulator(),
  }));
}
