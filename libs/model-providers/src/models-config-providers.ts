import type { ModelProvider } from '@pi/agent';
import type { ModelsConfig } from './models-config';
import { createOpenAICompatibleProvider } from './openai-compatible-provider';

export interface ModelsConfigProviderOptions {
  /** Where `apiKeyEnv` names are looked up (normally process.env, injected so tests and hosts choose). */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly fetch?: typeof fetch;
}

/**
 * One OpenAI-compatible provider per configured server. Keys are read from the environment at each request,
 * never copied into the config, so a missing variable fails that turn with no_credentials rather than the load.
 */
export function createModelsConfigProviders(
  config: ModelsConfig,
  options: ModelsConfigProviderOptions,
): ModelProvider[] {
  return config.providers.map((provider) => {
    const { apiKeyEnv } = provider;
    return createOpenAICompatibleProvider({
      id: provider.id,
      name: provider.name,
      baseUrl: provider.baseUrl,
      models: provider.models,
      headers: provider.headers,
      apiKey: apiKeyEnv === null ? undefined : async () => options.env[apiKeyEnv],
      ...(provider.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: provider.idleTimeoutMs }),
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    });
  });
}
