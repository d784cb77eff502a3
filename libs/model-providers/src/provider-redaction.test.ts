import { ProviderError } from '@pi/agent';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { describe, expect, it } from 'vitest';
import { createOpenAICompatibleProvider } from './openai-compatible-provider';
import { MAX_PROVIDER_MESSAGE_LENGTH, redactSecrets, redactedFailure } from './provider-redaction';

// Characters that change under URL-encoding and JSON escaping, so every form differs from the key as sent.
const key = 'pi/key+"q"&<x>-7f3a';

describe('redactSecrets', () => {
  it.each([
    ['as sent', key],
    ['URL-encoded', encodeURIComponent(key)],
    ['URL-encoded with lower-case hex', encodeURIComponent(key).replace(/%[0-9A-F]{2}/g, (code) => code.toLowerCase())],
    ['JSON-escaped', JSON.stringify(key).slice(1, -1)],
    ['JSON-escaped with escaped slashes', JSON.stringify(key).slice(1, -1).replaceAll('/', '\\/')],
    ['escaped the way Go writes &, < and >', 'pi/key+\\"q\\"\\u0026\\u003cx\\u003e-7f3a'],
  ])('replaces a key echoed %s', (_form, echoed) => {
    expect(redactSecrets(`Incorrect API key provided: ${echoed}.`, [key])).toBe(
      'Incorrect API key provided: [redacted].',
    );
  });

  it('replaces every occurrence, and the longer of two overlapping secrets whole', () => {
    expect(redactSecrets('a=sk-long-key b=sk-long c=sk-long-key', ['sk-long', 'sk-long-key'])).toBe(
      'a=[redacted] b=[redacted] c=[redacted]',
    );
  });

  it('leaves text without a secret alone', () => {
    expect(redactSecrets('HTTP 500: upstream exploded', [key, ''])).toBe('HTTP 500: upstream exploded');
  });
});

describe('redactedFailure', () => {
  it('keeps the code of a ProviderError and redacts its message', () => {
    const failure = redactedFailure(new ProviderError('http_status', `bad key ${key}`), [key]);
    expect(failure).toMatchObject({ code: 'http_status', message: 'bad key [redacted]' });
  });

  it('turns any other thrown value into stream_dropped, with its redacted message and cause', () => {
    const thrown = new TypeError('fetch failed', { cause: new Error(`header Bearer ${key} rejected`) });
    const failure = redactedFailure(thrown, [key]);
    expect(failure).toBeInstanceOf(ProviderError);
    expect(failure.code).toBe('stream_dropped');
    expect(failure.message).toBe('the model request failed: fetch failed (header Bearer [redacted] rejected)');
  });

  it('cuts a long message only after redacting, so no part of a key straddling the cut survives', () => {
    const padding = 'x'.repeat(MAX_PROVIDER_MESSAGE_LENGTH - 5);
    const failure = redactedFailure(new ProviderError('http_status', `${padding}${key}${'y'.repeat(500)}`), [key]);
    expect(failure.message).toHaveLength(MAX_PROVIDER_MESSAGE_LENGTH + 1);
    expect(failure.message).not.toContain(key.slice(0, 5));
    expect(failure.message.endsWith('…')).toBe(true);
  });
});

describe('a credential written into the base URL', () => {
  it('is redacted from the error fetch throws when it refuses such a URL', async () => {
    const provider = createOpenAICompatibleProvider({
      id: 'proxy',
      name: 'Proxy',
      baseUrl: 'http://me:s3cret%2Fpass@127.0.0.1:9/v1',
      models: [{ modelId: 'm' }],
    });
    const request = { modelId: 'm', messages: [], tools: [], thinkingLevel: 'off' as const };
    const iterator = provider.stream(request, BACKGROUND_CONTEXT)[Symbol.asyncIterator]();
    const error = (await iterator.next().catch((thrown: unknown) => thrown)) as ProviderError;
    expect(error.code).toBe('stream_dropped');
    expect(error.message).toContain('[redacted]');
    expect(error.message).not.toMatch(/s3cret/);
  });
});
