import { describe, expect, it } from 'vitest';
import { BUILTIN_PROVIDERS, parseModelsConfig, type ModelsConfig } from '@pi/model-providers';
import { ConfiguredProviders } from './configured-providers';
import { memoryCredentials } from './testing/stand-in-facets';

const config: ModelsConfig = {
  providers: [
    {
      id: 'router',
      name: 'Router',
      api: 'openai-completions',
      baseUrl: 'https://router.example/v1',
      apiKeyEnv: 'ROUTER_KEY',
      headers: {},
      models: [{ provider: 'router', modelId: 'big', name: 'Big', reasoning: true, contextWindow: 200_000 }],
    },
    {
      id: 'local',
      name: 'Local',
      api: 'openai-completions',
      baseUrl: 'http://127.0.0.1:9/v1',
      apiKeyEnv: null,
      headers: {},
      models: [{ provider: 'local', modelId: 'small', name: 'Small', reasoning: false }],
    },
  ],
};

describe('the models.json provider layer', () => {
  it('builds one live provider per configured server, with its models', () => {
    const layer = new ConfiguredProviders({ env: {}, credentials: () => undefined });
    expect(layer.accept(config)).toBe(true);
    const configured = layer.providers().filter((provider) => provider.id === 'router' || provider.id === 'local');
    expect(configured.map((provider) => [provider.id, provider.models().map((model) => model.modelId)])).toEqual([
      ['router', ['big']],
      ['local', ['small']],
    ]);
    expect(layer.accept(structuredClone(config))).toBe(false);
  });

  it("carries a model's context window to the live provider, which compaction reads it from", () => {
    const layer = new ConfiguredProviders({ env: {}, credentials: () => undefined });
    layer.accept(config);
    const configured = layer.providers().filter((provider) => provider.id === 'router' || provider.id === 'local');
    expect(configured.map((provider) => provider.models()[0]?.contextWindow)).toEqual([200_000, undefined]);
  });

  it('prefers a stored key over the environment variable', async () => {
    const router = config.providers[0];
    if (router === undefined) throw new Error('fixture');
    const withStore = new ConfiguredProviders({
      env: { ROUTER_KEY: 'from-env' },
      credentials: () => memoryCredentials({ router: 'from-store' }),
    });
    const withoutStore = new ConfiguredProviders({ env: { ROUTER_KEY: 'from-env' }, credentials: () => undefined });
    expect(await withStore.apiKeyOf(router)).toBe('from-store');
    expect(await withoutStore.apiKeyOf(router)).toBe('from-env');
  });

  it('sends a key to a server without apiKeyEnv only once a key is stored for it', async () => {
    const local = config.providers[1];
    if (local === undefined) throw new Error('fixture');
    const store = memoryCredentials();
    const layer = new ConfiguredProviders({ env: {}, credentials: () => store });
    layer.accept(config);
    expect(layer.needsKey(local)).toBe(false);
    expect(await layer.refreshStoredKeys()).toBe(false);
    await store.set('local', 'sk-local');
    expect(await layer.refreshStoredKeys()).toBe(true);
    expect(layer.needsKey(local)).toBe(true);
  });

  it('offers the built-in providers without any configuration, marking one whose key is missing', async () => {
    const store = memoryCredentials();
    const layer = new ConfiguredProviders({ env: { OPENAI_API_KEY: 'sk-env' }, credentials: () => store });
    expect(layer.providers().map((provider) => provider.id)).toEqual(BUILTIN_PROVIDERS.map((provider) => provider.id));
    expect(layer.keyMissing('anthropic')).toBe(true);
    expect(layer.keyMissing('openai')).toBe(false);
    await store.set('anthropic', 'sk-ant');
    await layer.refreshStoredKeys();
    expect(layer.keyMissing('anthropic')).toBe(false);
    layer.accept(config);
    expect(layer.keyMissing('router')).toBe(true);
    expect(layer.keyMissing('local')).toBe(false);
    expect(layer.keyMissing('offline')).toBe(false);
  });

  it('speaks the Anthropic protocol to a built-in Anthropic pointed at another server', () => {
    const layer = new ConfiguredProviders({ env: {}, credentials: () => undefined });
    layer.accept(parseModelsConfig({ providers: { anthropic: { baseUrl: 'http://127.0.0.1:9' } } })._unsafeUnwrap());
    const anthropic = layer.providers().find((provider) => provider.id === 'anthropic');
    expect(anthropic?.name).toBe('Anthropic');
    expect(anthropic?.models().map((model) => model.modelId)).toContain('claude-sonnet-4-5');
  });

  it('gives every live provider, whatever its protocol, its catalogue models with their window, limit and prices', () => {
    const layer = new ConfiguredProviders({ env: {}, credentials: () => undefined });
    for (const builtin of BUILTIN_PROVIDERS) {
      const live = layer.providers().find((provider) => provider.id === builtin.id);
      expect(live?.models(), builtin.id).toEqual(builtin.models.map((model) => ({ ...model, provider: builtin.id })));
    }
  });
});
