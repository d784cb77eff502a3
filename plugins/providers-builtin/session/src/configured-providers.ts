import type { CredentialStore } from '@pi/accounts';
import type { ModelProvider } from '@pi/agent';
import {
  EMPTY_MODELS_CONFIG,
  providerCatalogue,
  providerFromConfig,
  type ModelsConfig,
  type ProviderConfig,
} from '@pi/model-providers';

export interface ConfiguredProvidersOptions {
  /** Where `apiKeyEnv` names are looked up. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly fetch?: typeof fetch;
  /** The local credential store, when @pi/accounts is in the manifest. */
  readonly credentials: () => CredentialStore | undefined;
}

/**
 * The network providers: the built-in catalogue with the models.json layer over it (the last good config), and
 * the live providers built from them. A key is looked up at every request, first in the credential store and
 * then in the `apiKeyEnv` variable, so a key stored or rotated later applies to the next turn. A provider without
 * `apiKeyEnv` is treated as an unauthenticated (local) server unless the credential store holds a key for it.
 */
export class ConfiguredProviders {
  readonly #options: ConfiguredProvidersOptions;
  #config: ModelsConfig = EMPTY_MODELS_CONFIG;
  /** The config's JSON, so comparing a reload costs one encoding, not two. */
  #configJson = JSON.stringify(EMPTY_MODELS_CONFIG);
  #stored: ReadonlySet<string> = new Set();
  #catalogue: readonly ProviderConfig[] = [];
  #providers: readonly ModelProvider[] = [];

  constructor(options: ConfiguredProvidersOptions) {
    this.#options = options;
    this.#rebuild();
  }

  get config(): ModelsConfig {
    return this.#config;
  }

  /** The providers to contribute (synchronous and cheap: built when the config or the stored keys change). */
  providers(): readonly ModelProvider[] {
    return this.#providers;
  }

  /** Takes a newly loaded config; returns whether it differs from the last good one. */
  accept(config: ModelsConfig): boolean {
    const json = JSON.stringify(config);
    if (json === this.#configJson) return false;
    this.#config = config;
    this.#configJson = json;
    this.#rebuild();
    return true;
  }

  /** Re-reads which providers have a stored key; returns whether that changed which providers send one. */
  async refreshStoredKeys(): Promise<boolean> {
    const stored = new Set(await (this.#options.credentials()?.list() ?? Promise.resolve([])).catch(() => []));
    if (stored.size === this.#stored.size && [...stored].every((id) => this.#stored.has(id))) return false;
    this.#stored = stored;
    this.#rebuild();
    return true;
  }

  /** The key a request to this provider sends: the stored one, else the environment's, else none. */
  async apiKeyOf(provider: ProviderConfig): Promise<string | undefined> {
    const stored = await this.#options
      .credentials()
      ?.get(provider.id)
      .catch(() => undefined);
    if (stored !== undefined && stored !== '') return stored;
    return provider.apiKeyEnv === null ? undefined : this.#options.env[provider.apiKeyEnv];
  }

  needsKey(provider: ProviderConfig): boolean {
    return provider.apiKeyEnv !== null || this.#stored.has(provider.id);
  }

  /**
   * Whether a request to this provider would go without the key it needs: none stored, none in its variable.
   * Read when the catalogue is published (a key set in the environment later shows after the next rebuild).
   */
  keyMissing(providerId: string): boolean {
    const provider = this.#catalogue.find((candidate) => candidate.id === providerId);
    if (provider === undefined || provider.apiKeyEnv === null || this.#stored.has(providerId)) return false;
    return !this.#options.env[provider.apiKeyEnv];
  }

  #rebuild(): void {
    this.#catalogue = providerCatalogue(this.#config);
    this.#providers = this.#catalogue.map((provider) =>
      providerFromConfig(provider, {
        ...(this.needsKey(provider) ? { apiKey: () => this.apiKeyOf(provider) } : {}),
        ...(this.#options.fetch === undefined ? {} : { fetch: this.#options.fetch }),
      }),
    );
  }
}
