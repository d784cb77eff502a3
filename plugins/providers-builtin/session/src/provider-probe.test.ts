import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProviderConfig } from '@pi/model-providers';
import { probeProvider } from './provider-probe';
import { startFakeModelsServer, type FakeModelsServer } from './testing/fake-models-server';
import { eventually } from '@pi/test-support';

const KEY = 'sk-probe-1234567890';

function config(baseUrl: string, apiKeyEnv: string | null = 'ROUTER_KEY'): ProviderConfig {
  return {
    id: 'router',
    name: 'Router',
    api: 'openai-completions',
    baseUrl,
    apiKeyEnv,
    headers: { 'x-title': 'pi' },
    models: [],
  };
}

describe('probing a configured provider', () => {
  let server: FakeModelsServer;
  const options = (signal?: AbortSignal, timeoutMs = 5_000) => ({ fetch, signal, timeoutMs });

  beforeEach(async () => {
    server = await startFakeModelsServer();
  });

  afterEach(async () => {
    await server.close();
  });

  it('passes when the server lists its models, sending the key as a bearer token', async () => {
    expect(await probeProvider(config(server.baseUrl), KEY, true, options())).toBeNull();
    expect(server.authorizations).toEqual([`Bearer ${KEY}`]);
  });

  it("asks a server speaking Anthropic's protocol at /v1/models with its key header", async () => {
    const anthropic = { ...config(server.baseUrl.replace(/\/v1$/, '')), api: 'anthropic' as const };
    expect(await probeProvider(anthropic, KEY, true, options())).toBeNull();
    expect(server.apiKeys).toEqual([KEY]);
    expect(server.authorizations).toEqual(['']);
  });

  it('reports a refused key by status, without the key or the body', async () => {
    server.mode = 'unauthorized';
    const problem = await probeProvider(config(`${server.baseUrl}/`), KEY, true, options());
    expect(problem).toBe('HTTP 401 Unauthorized');
  });

  it('reports a missing key without asking the server', async () => {
    expect(await probeProvider(config(server.baseUrl), undefined, true, options())).toBe(
      'no API key is stored and ROUTER_KEY is not set',
    );
    expect(server.authorizations).toEqual([]);
  });

  it('asks a server without authentication with no key', async () => {
    expect(await probeProvider(config(server.baseUrl, null), undefined, false, options())).toBeNull();
    expect(server.authorizations).toEqual(['']);
  });

  it('reports a server that is not there by its network code', async () => {
    const address = server.baseUrl;
    await server.close();
    expect(await probeProvider(config(address), KEY, true, options())).toBe('unreachable (ECONNREFUSED)');
    server = await startFakeModelsServer();
  });

  it('reports a server that does not answer in time', async () => {
    server.mode = 'hold';
    expect(await probeProvider(config(server.baseUrl), KEY, true, options(undefined, 20))).toBe(
      'no answer within 20 ms',
    );
  });

  it('rejects when the caller aborts, and closes the request', async () => {
    server.mode = 'hold';
    const controller = new AbortController();
    const probing = probeProvider(config(server.baseUrl), KEY, true, options(controller.signal));
    await eventually(() => server.held === 1);
    controller.abort(new Error('caller gave up'));
    await expect(probing).rejects.toThrow('caller gave up');
    await eventually(() => server.held === 0);
  });
});
