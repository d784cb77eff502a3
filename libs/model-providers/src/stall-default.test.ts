import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { createOpenAICompatibleProvider } from './openai-compatible-provider';
import { DEFAULT_IDLE_TIMEOUT_MS } from './stall-watch';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A server that accepts the connection and never answers: the fetch ends only when its signal aborts. */
const silentFetch: typeof fetch = (_url, init) =>
  new Promise((_resolve, reject) => {
    init?.signal?.addEventListener('abort', () => reject(init.signal?.reason), { once: true });
  });

describe('the default stall timeout', () => {
  it('is 90 s: a server silent that long ends the turn, one silent a moment less does not', async () => {
    expect(DEFAULT_IDLE_TIMEOUT_MS).toBe(90_000);
    const provider = createOpenAICompatibleProvider({
      id: 'local',
      name: 'Local',
      baseUrl: 'http://127.0.0.1:9/v1',
      models: [{ modelId: 'm' }],
      fetch: silentFetch,
    });
    const stream = provider.stream({ modelId: 'm', messages: [], tools: [], thinkingLevel: 'off' }, BACKGROUND_CONTEXT);
    let outcome: unknown = 'pending';
    const first = stream[Symbol.asyncIterator]().next();
    first.then(
      () => (outcome = 'answered'),
      (error: unknown) => (outcome = error),
    );
    await vi.advanceTimersByTimeAsync(89_999);
    expect(outcome).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toMatchObject({
      code: 'stream_dropped',
      message: 'model stream stalled: no data from Local for 90 s',
    });
  });
});
