import type { ModelProvider } from '@pi/agent';
import type { ModelsConfig } from './models-config';
import { providerFromConfig } from './provider-from-config';

export interface ModelsConfigProviderOptions {
  /** Where `apiKeyEnv` names are looked up (normally process.env, injected so tests and hosts choose). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Sends the requests in place of the built-in client (see ServerConnection.fetch). */
  readonly fetch?: typeof fetch;
}

/**
 * One provider per configured server, each speaking its protocol (`providerCatalogue` adds the built-in ones).
 * Keys are read from the environment at each request, never copied into the config, so a missing variable fails
 * that turn with no_credentials rather than the load.
 */
export function createModelsConfigProviders(
  config: ModelsConfig,
  options: ModelsConfigProviderOptions,
): ModelProvider[] {
  return config.providers.map((provider) => {
    const { apiKeyEnv } = provider;
    return providerFromConfig(provider, {
      ...(apiKeyEnv === null ? {} : { apiKey: async () => options.env[apiKeyEnv] }),
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    });
  });
}
