import { BACKGROUND_CONTEXT } from '@pi/context';
import { describe, expect, it } from 'vitest';
import { parseModelsConfig } from './models-config';
import { createModelsConfigProviders } from './models-config-providers';

const config = parseModelsConfig({
  providers: {
    myrouter: {
      name: 'OpenRouter',
      baseUrl: 'https://myrouter.invalid/api/v1',
      apiKeyEnv: 'OPENROUTER_API_KEY',
      headers: { 'X-Title': 'pi' },
      models: [{ id: 'vendor/model', reasoning: true }],
    },
  },
})._unsafeUnwrap();

const request = { modelId: 'vendor/model', messages: [], tools: [], thinkingLevel: 'off' as const };

describe('createModelsConfigProviders', () => {
  it('makes one provider per configured server with its models', () => {
    const [provider] = createModelsConfigProviders(config, { env: {} });
    expect(provider?.id).toBe('myrouter');
    expect(provider?.models()).toEqual([
      { provider: 'myrouter', modelId: 'vendor/model', name: 'vendor/model', reasoning: true },
    ]);
  });

  it('reads the key from the named environment variable and sends the configured headers', async () => {
    const seen: Headers[] = [];
    const fakeFetch: typeof fetch = async (_url, init) => {
      seen.push(new Headers(init?.headers));
      return new Response('data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n');
    };
    const [provider] = createModelsConfigProviders(config, { env: { OPENROUTER_API_KEY: 'sk-env' }, fetch: fakeFetch });
    const events = [];
    for await (const event of provider?.stream(request, BACKGROUND_CONTEXT) ?? []) events.push(event);
    expect(events).toEqual([{ type: 'done', stopReason: 'stop' }]);
    expect(seen[0]?.get('authorization')).toBe('Bearer sk-env');
    expect(seen[0]?.get('x-title')).toBe('pi');
  });

  it('fails a turn with no_credentials when the variable is unset', async () => {
    const [provider] = createModelsConfigProviders(config, { env: {} });
    const iterator = provider?.stream(request, BACKGROUND_CONTEXT)[Symbol.asyncIterator]();
    await expect(iterator?.next()).rejects.toMatchObject({ code: 'no_credentials' });
  });

  it('gives each provider the idle timeout its entry sets', async () => {
    const slow = parseModelsConfig({
      providers: { local: { baseUrl: 'http://127.0.0.1:9/v1', idleTimeoutMs: 50, models: [{ id: 'm' }] } },
    })._unsafeUnwrap();
    // A fetch that never answers, and ignores its abort signal too.
    const silentFetch: typeof fetch = () => new Promise<Response>(() => undefined);
    const [provider] = createModelsConfigProviders(slow, { env: {}, fetch: silentFetch });
    const iterator = provider?.stream({ ...request, modelId: 'm' }, BACKGROUND_CONTEXT)[Symbol.asyncIterator]();
    await expect(iterator?.next()).rejects.toMatchObject({
      message: 'model stream stalled: no data from local for 50 ms',
    });
  });
});
