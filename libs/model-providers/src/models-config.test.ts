import { describe, expect, it } from 'vitest';
import { BUILTIN_PROVIDERS, builtinProvider } from './builtin-catalogue';
import { EMPTY_MODELS_CONFIG, parseModelsConfig, providerCatalogue } from './models-config';
import { MAX_MODELS_JSON_MODELS, MAX_REPORTED_ISSUES, MODELS_PER_STEP } from './models-config-limits';
import { providerFromConfig } from './provider-from-config';

const local = (models: unknown[]) => ({ providers: { local: { baseUrl: 'http://127.0.0.1:11434/v1', models } } });
const numbered = (count: number, from = 0) =>
  Array.from({ length: count }, (_, index) => ({ id: `m-${from + index}` }));

describe('parseModelsConfig', () => {
  it('reads providers in file order with defaults for optional fields', () => {
    const result = parseModelsConfig({
      providers: {
        myrouter: {
          name: 'OpenRouter',
          baseUrl: 'https://myrouter.ai/api/v1',
          apiKeyEnv: 'OPENROUTER_API_KEY',
          headers: { 'HTTP-Referer': 'https://example.org' },
          models: [{ id: 'anthropic/claude-sonnet-4', name: 'Claude Sonnet 4', reasoning: true }],
        },
        local: { baseUrl: 'http://127.0.0.1:11434/v1', models: [{ id: 'qwen3' }] },
      },
    });
    expect(result._unsafeUnwrap()).toEqual({
      providers: [
        {
          id: 'myrouter',
          name: 'OpenRouter',
          api: 'openai-completions',
          baseUrl: 'https://myrouter.ai/api/v1',
          apiKeyEnv: 'OPENROUTER_API_KEY',
          headers: { 'HTTP-Referer': 'https://example.org' },
          models: [
            { provider: 'myrouter', modelId: 'anthropic/claude-sonnet-4', name: 'Claude Sonnet 4', reasoning: true },
          ],
        },
        {
          id: 'local',
          name: 'local',
          api: 'openai-completions',
          baseUrl: 'http://127.0.0.1:11434/v1',
          apiKeyEnv: null,
          headers: {},
          models: [{ provider: 'local', modelId: 'qwen3', name: 'qwen3', reasoning: false }],
        },
      ],
    });
  });

  it('names the path of every problem', () => {
    const result = parseModelsConfig({
      providers: {
        myrouter: { baseUrl: 'not a url', models: [{ id: 'a' }, { id: 'a' }], apiKey: 'sk-oops' },
        'bad/id': { baseUrl: 'ftp://example.org', models: [] },
      },
    });
    const error = result._unsafeUnwrapErr();
    expect(error.code).toBe('invalid_config');
    expect(error.issues).toEqual(
      expect.arrayContaining([
        'providers.myrouter.baseUrl: Invalid URL',
        'providers.myrouter.models[1].id: duplicate model id "a"',
        expect.stringMatching(/^providers\.myrouter: Unrecognized key: "apiKey"/),
        expect.stringMatching(/^providers\.bad\/id: a provider id is/),
        'providers.bad/id.baseUrl: Invalid URL',
        'providers.bad/id.models: a provider pi does not know needs at least one model',
      ]),
    );
    expect(error.message).toContain('providers.myrouter.baseUrl: Invalid URL');
  });

  it('rejects a document that is not an object with providers', () => {
    expect(parseModelsConfig([]).isErr()).toBe(true);
    expect(parseModelsConfig({})._unsafeUnwrapErr().issues[0]).toMatch(/^providers: /);
  });

  it("reads a provider's idle timeout, and leaves it out when unset", () => {
    const result = parseModelsConfig({
      providers: {
        slow: { baseUrl: 'http://127.0.0.1:11434/v1', idleTimeoutMs: 240_000, models: [{ id: 'big' }] },
        fast: { baseUrl: 'http://127.0.0.1:11435/v1', models: [{ id: 'small' }] },
      },
    });
    const [slow, fast] = result._unsafeUnwrap().providers;
    expect(slow?.idleTimeoutMs).toBe(240_000);
    expect(fast).not.toHaveProperty('idleTimeoutMs');
  });

  it.each([
    [0, 'providers.local.idleTimeoutMs: must be at least 1 (milliseconds)'],
    [1.5, 'providers.local.idleTimeoutMs: a whole number of milliseconds'],
    [300_001, "providers.local.idleTimeoutMs: at most 300000 (5 minutes, the HTTP client's own limit)"],
    ['60000', expect.stringMatching(/^providers\.local\.idleTimeoutMs: Invalid input: expected number/)],
  ])('rejects an idle timeout of %j with an error naming it', (idleTimeoutMs, issue) => {
    const result = parseModelsConfig({
      providers: { local: { baseUrl: 'http://127.0.0.1:11434/v1', idleTimeoutMs, models: [{ id: 'a' }] } },
    });
    expect(result._unsafeUnwrapErr()).toMatchObject({ code: 'invalid_config', issues: [issue] });
  });

  it("reads a model's context window, and leaves it out when unset", () => {
    const result = parseModelsConfig({
      providers: {
        local: {
          baseUrl: 'http://127.0.0.1:11434/v1',
          models: [{ id: 'big', contextWindow: 131_072 }, { id: 'small' }],
        },
      },
    });
    const [big, small] = result._unsafeUnwrap().providers[0]?.models ?? [];
    expect(big?.contextWindow).toBe(131_072);
    expect(small).not.toHaveProperty('contextWindow');
  });

  it.each([
    [0, 'providers.local.models[0].contextWindow: must be at least 1 (tokens)'],
    [1000.5, 'providers.local.models[0].contextWindow: a whole number of tokens'],
    [100_000_001, 'providers.local.models[0].contextWindow: at most 100000000 tokens'],
  ])('rejects a context window of %j with an error naming it', (contextWindow, issue) => {
    const result = parseModelsConfig({
      providers: { local: { baseUrl: 'http://127.0.0.1:11434/v1', models: [{ id: 'a', contextWindow }] } },
    });
    expect(result._unsafeUnwrapErr()).toMatchObject({ code: 'invalid_config', issues: [issue] });
  });

  it('reports a problem in a later slice of models at its place in the file', () => {
    const models: unknown[] = numbered(MODELS_PER_STEP * 3);
    models[MODELS_PER_STEP + 10] = { id: 'm-3' };
    models[MODELS_PER_STEP * 2 + 5] = { id: 'late', contextWindow: 0 };
    expect(parseModelsConfig(local(models))._unsafeUnwrapErr().issues).toEqual([
      `providers.local.models[${MODELS_PER_STEP + 10}].id: duplicate model id "m-3"`,
      `providers.local.models[${MODELS_PER_STEP * 2 + 5}].contextWindow: must be at least 1 (tokens)`,
    ]);
  });

  it('lists the first problems of a file with many and counts the rest', () => {
    const models = Array.from({ length: MAX_REPORTED_ISSUES + 10 }, (_, index) => ({
      id: `m-${index}`,
      reasoning: 'yes',
    }));
    const error = parseModelsConfig(local(models))._unsafeUnwrapErr();
    expect(error.issues).toHaveLength(MAX_REPORTED_ISSUES + 1);
    expect(error.issues[0]).toMatch(/^providers\.local\.models\[0\]\.reasoning: /);
    expect(error.issues.at(-1)).toBe('and 10 more problems');
    expect(error.message.split('; ')).toHaveLength(MAX_REPORTED_ISSUES + 1);
  });

  it('takes a catalogue of exactly the model limit', () => {
    const config = parseModelsConfig(local(numbered(MAX_MODELS_JSON_MODELS)))._unsafeUnwrap();
    expect(config.providers[0]?.models).toHaveLength(MAX_MODELS_JSON_MODELS);
    expect(config.providers[0]?.models.at(-1)).toEqual({
      provider: 'local',
      modelId: `m-${MAX_MODELS_JSON_MODELS - 1}`,
      name: `m-${MAX_MODELS_JSON_MODELS - 1}`,
      reasoning: false,
    });
  });

  it('refuses a file listing more models than the limit over all its providers, naming the count and the limit', () => {
    const half = MAX_MODELS_JSON_MODELS / 2;
    const result = parseModelsConfig({
      providers: {
        a: { baseUrl: 'http://127.0.0.1:1/v1', models: numbered(half) },
        b: { baseUrl: 'http://127.0.0.1:2/v1', models: numbered(half + 1, half) },
      },
    });
    expect(result._unsafeUnwrapErr()).toEqual({
      code: 'too_many_models',
      file: null,
      issues: [],
      message: `lists ${MAX_MODELS_JSON_MODELS + 1} models, over the limit of ${MAX_MODELS_JSON_MODELS}; none was loaded`,
      limit: { found: MAX_MODELS_JSON_MODELS + 1, max: MAX_MODELS_JSON_MODELS },
    });
  });
});

describe('the built-in providers in models.json', () => {
  it('keep their catalogue, protocol and key variable when only the base URL is given', () => {
    const config = parseModelsConfig({ providers: { anthropic: { baseUrl: 'http://127.0.0.1:9/' } } })._unsafeUnwrap();
    const [anthropic] = config.providers;
    expect(anthropic).toMatchObject({
      id: 'anthropic',
      name: 'Anthropic',
      api: 'anthropic',
      baseUrl: 'http://127.0.0.1:9/',
      apiKeyEnv: 'ANTHROPIC_API_KEY',
    });
    expect(anthropic?.models.map((model) => model.modelId)).toEqual(
      builtinProvider('anthropic')?.models.map((model) => model.modelId),
    );
  });

  it('take a model with a catalogue id in its place, and add the others after the catalogue', () => {
    const config = parseModelsConfig({
      providers: {
        openai: {
          models: [
            { id: 'gpt-new', contextWindow: 1000, cost: { input: 1, output: 2 } },
            { id: 'gpt-5', name: 'My GPT-5', maxOutputTokens: 1234 },
          ],
        },
      },
    })._unsafeUnwrap();
    const models = config.providers[0]?.models ?? [];
    expect(models[0]).toEqual({
      provider: 'openai',
      modelId: 'gpt-5',
      name: 'My GPT-5',
      reasoning: false,
      maxOutputTokens: 1234,
    });
    expect(models.at(-1)).toEqual({
      provider: 'openai',
      modelId: 'gpt-new',
      name: 'gpt-new',
      reasoning: false,
      contextWindow: 1000,
      cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 },
    });
  });

  it('all take part in the catalogue, the untouched ones first, then the configured ones in file order', () => {
    const config = parseModelsConfig({
      providers: {
        local: { baseUrl: 'http://127.0.0.1:11434/v1', api: 'anthropic', models: [{ id: 'q' }] },
        openai: { baseUrl: 'http://127.0.0.1:8/v1' },
      },
    })._unsafeUnwrap();
    const ids = providerCatalogue(config).map((provider) => provider.id);
    const untouched = BUILTIN_PROVIDERS.map((provider) => provider.id).filter((id) => id !== 'openai');
    expect(ids).toEqual([...untouched, 'local', 'openai']);
    expect(providerCatalogue(config).find((provider) => provider.id === 'local')?.api).toBe('anthropic');
    expect(providerCatalogue(EMPTY_MODELS_CONFIG).map((provider) => provider.id)).toEqual(
      BUILTIN_PROVIDERS.map((provider) => provider.id),
    );
  });

  it('refuses an unknown protocol and a negative price, naming them', () => {
    const error = parseModelsConfig({
      providers: {
        local: { baseUrl: 'http://x/v1', api: 'grpc', models: [{ id: 'a', cost: { input: -1, output: 0 } }] },
      },
    })._unsafeUnwrapErr();
    expect(error.issues).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^providers\.local\.api: /),
        'providers.local.models[0].cost.input: a price cannot be negative',
      ]),
    );
  });
});

describe('a provider sign-in (login) in models.json', () => {
  const device = {
    flow: 'device_code',
    deviceAuthorizationUrl: 'https://sso.example.com/device',
    tokenUrl: 'https://sso.example.com/token',
    clientId: 'pi',
  };

  it("OpenRouter signs in with its PKCE flow out of the box; models.json replaces a built-in's login whole", () => {
    const builtin = providerCatalogue(EMPTY_MODELS_CONFIG).find((provider) => provider.id === 'openrouter');
    expect(builtin?.login).toMatchObject({ flow: 'authorization_code', dialect: 'openrouter' });
    expect(
      providerCatalogue(EMPTY_MODELS_CONFIG).find((provider) => provider.id === 'anthropic')?.login,
    ).toBeUndefined();

    const config = parseModelsConfig({ providers: { openrouter: { login: device } } })._unsafeUnwrap();
    const [openrouter] = config.providers;
    expect(openrouter?.login).toEqual(device);
    expect(openrouter === undefined ? undefined : providerFromConfig(openrouter, {}).login).toEqual(device);
  });

  it('a gateway of its own may sign in with the device flow', () => {
    const config = parseModelsConfig({
      providers: { gateway: { baseUrl: 'https://llm.example.com/v1', login: device, models: [{ id: 'm' }] } },
    })._unsafeUnwrap();
    const [gateway] = config.providers;
    expect(gateway === undefined ? undefined : providerFromConfig(gateway, {}).login).toEqual(device);
  });

  it('refuses an unknown flow, a missing URL, a non-http address and an oauth2 login without a client id', () => {
    const issues = (login: unknown) =>
      parseModelsConfig({ providers: { openrouter: { login } } })._unsafeUnwrapErr().issues;
    expect(issues({ flow: 'password' })[0]).toMatch(/^providers\.openrouter\.login\.flow: /);
    expect(issues({ ...device, tokenUrl: undefined })).toEqual([
      expect.stringMatching(/^providers\.openrouter\.login\.tokenUrl: /),
    ]);
    expect(issues({ ...device, deviceAuthorizationUrl: 'file:///etc/passwd' })).toEqual([
      'providers.openrouter.login.deviceAuthorizationUrl: an http(s) URL',
    ]);
    expect(
      issues({
        flow: 'authorization_code',
        dialect: 'oauth2',
        authorizeUrl: 'https://a.example/authorize',
        tokenUrl: 'https://a.example/token',
        redirectUri: 'http://localhost:3000/cb',
      }),
    ).toEqual(['providers.openrouter.login.clientId: the oauth2 dialect needs a client id']);
  });
});

describe('image input in the catalogue', () => {
  it('says per built-in model whether it reads images, and models.json may say it of its own', () => {
    const catalogue = providerCatalogue(EMPTY_MODELS_CONFIG).flatMap((provider) => provider.models);
    const reads = (modelId: string) => catalogue.find((model) => model.modelId === modelId)?.images;
    expect([reads('claude-sonnet-4-5'), reads('gpt-5'), reads('gemini-2.5-pro')]).toEqual([true, true, true]);
    expect([reads('deepseek-chat'), reads('devstral-medium-latest')]).toEqual([false, false]);
    expect(catalogue.every((model) => typeof model.images === 'boolean')).toBe(true);

    const config = parseModelsConfig(local([{ id: 'llava', images: true }, { id: 'coder' }]))._unsafeUnwrap();
    expect(config.providers[0]?.models.map((model) => model.images)).toEqual([true, undefined]);
    expect(parseModelsConfig(local([{ id: 'x', images: 'yes' }]))._unsafeUnwrapErr().issues[0]).toMatch(
      /^providers\.local\.models\[0\]\.images: /,
    );
  });
});
