import { describe, expect, it } from 'vitest';
import { parseModelsConfig } from './models-config';

describe('parseModelsConfig', () => {
  it('reads providers in file order with defaults for optional fields', () => {
    const result = parseModelsConfig({
      providers: {
        openrouter: {
          name: 'OpenRouter',
          baseUrl: 'https://openrouter.ai/api/v1',
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
          id: 'openrouter',
          name: 'OpenRouter',
          baseUrl: 'https://openrouter.ai/api/v1',
          apiKeyEnv: 'OPENROUTER_API_KEY',
          headers: { 'HTTP-Referer': 'https://example.org' },
          models: [
            { provider: 'openrouter', modelId: 'anthropic/claude-sonnet-4', name: 'Claude Sonnet 4', reasoning: true },
          ],
        },
        {
          id: 'local',
          name: 'local',
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
        openrouter: { baseUrl: 'not a url', models: [{ id: 'a' }, { id: 'a' }], apiKey: 'sk-oops' },
        'bad/id': { baseUrl: 'ftp://example.org', models: [] },
      },
    });
    const error = result._unsafeUnwrapErr();
    expect(error.code).toBe('invalid_config');
    expect(error.issues).toEqual(
      expect.arrayContaining([
        'providers.openrouter.baseUrl: Invalid URL',
        'providers.openrouter.models[1].id: duplicate model id "a"',
        expect.stringMatching(/^providers\.openrouter: Unrecognized key: "apiKey"/),
        expect.stringMatching(/^providers\.bad\/id: a provider id is/),
        'providers.bad/id.baseUrl: Invalid URL',
        'providers.bad/id.models: a provider needs at least one model',
      ]),
    );
    expect(error.message).toContain('providers.openrouter.baseUrl: Invalid URL');
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
});
