import type { ModelProvider } from '@pi/agent';
import { createAnthropicProvider } from './anthropic-provider';
import { createGeminiProvider } from './gemini-provider';
import type { ProviderConfig } from './models-config';
import { createOpenAICompatibleProvider } from './openai-compatible-provider';

export interface ProviderConnectionOptions {
  /** Reads the key at each request; omitted for a server without authentication. */
  readonly apiKey?: () => Promise<string | undefined>;
  /** Sends the requests in place of the built-in client (see ServerConnection.fetch). */
  readonly fetch?: typeof fetch;
}

/** The live provider for one configured server, speaking its protocol. */
export function providerFromConfig(config: ProviderConfig, options: ProviderConnectionOptions): ModelProvider {
  const connection = {
    id: config.id,
    name: config.name,
    baseUrl: config.baseUrl,
    headers: config.headers,
    ...(config.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: config.idleTimeoutMs }),
    ...(config.login === undefined ? {} : { login: config.login }),
    ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  };
  switch (config.api) {
    case 'anthropic':
      return createAnthropicProvider({ ...connection, models: config.models });
    case 'google':
      return createGeminiProvider({ ...connection, models: config.models });
    case 'openai-completions':
      return createOpenAICompatibleProvider({ ...connection, models: config.models });
  }
}
