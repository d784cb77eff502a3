import type { ProviderRequest } from '@pi/agent';
import { BACKGROUND_CONTEXT, withAbortSignal } from '@pi/context';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAICompatibleProvider, type OpenAICompatibleProviderOptions } from './openai-compatible-provider';
import {
  beginEventStream,
  chunkEvent,
  startFakeChatServer,
  writePiece,
  type FakeChatHandler,
  type FakeChatServer,
} from './testing';
import { streamOutcome } from '../test/stream-outcome';

let server: FakeChatServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function providerFor(handler: FakeChatHandler, overrides: Partial<OpenAICompatibleProviderOptions> = {}) {
  server = await startFakeChatServer(handler);
  return createOpenAICompatibleProvider({
    id: 'local',
    name: 'Local',
    baseUrl: server.baseUrl,
    models: [{ modelId: 'model-a' }],
    ...overrides,
  });
}

const request: ProviderRequest = {
  modelId: 'model-a',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  tools: [],
  thinkingLevel: 'off',
};

const answer: FakeChatHandler = (_request, response) => {
  beginEventStream(response);
  response.end(`${chunkEvent({ content: 'ok' }, 'stop')}data: [DONE]\n\n`);
};

function rateLimited(retryAfter: string | null, status = 429): FakeChatHandler {
  return (_request, response) => {
    response.writeHead(status, {
      'content-type': 'application/json',
      ...(retryAfter === null ? {} : { 'retry-after': retryAfter }),
    });
    response.end(JSON.stringify({ error: { message: 'slow down' } }));
  };
}

/** Plays one handler per request, in order; the last one repeats. */
function inTurn(...handlers: FakeChatHandler[]): FakeChatHandler {
  let next = 0;
  return (recorded, response, raw) => handlers[Math.min(next++, handlers.length - 1)]?.(recorded, response, raw);
}

describe('a stalled model stream', () => {
  it('fails the turn with the stall message when the server sends one chunk and then nothing', async () => {
    const provider = await providerFor(
      async (_request, response) => {
        beginEventStream(response);
        await writePiece(response, chunkEvent({ content: 'first' }));
      },
      // Long enough that a loaded machine still delivers the first chunk before the timer could fire.
      { idleTimeoutMs: 1_000 },
    );
    const { streamed, error } = await streamOutcome(provider.stream(request, BACKGROUND_CONTEXT));
    expect(streamed).toEqual([{ type: 'text_delta', delta: 'first' }]);
    expect(error).toMatchObject({
      code: 'stream_dropped',
      message: 'model stream stalled: no data from Local for 1 s',
    });
  });

  it('fails the turn when the server takes the request and never answers', async () => {
    const provider = await providerFor(() => undefined, { idleTimeoutMs: 100 });
    const { error } = await streamOutcome(provider.stream(request, BACKGROUND_CONTEXT));
    expect(error?.message).toMatch(/^model stream stalled/);
  });

  it('keeps a slow stream whose every gap is shorter than the idle timeout, however long it runs in all', async () => {
    const provider = await providerFor(
      async (_request, response) => {
        beginEventStream(response);
        for (const word of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']) {
          await new Promise((resolve) => setTimeout(resolve, 150));
          await writePiece(response, chunkEvent({ content: word }));
        }
        response.end(`${chunkEvent({}, 'stop')}data: [DONE]\n\n`);
      },
      // 1.2 s in all, each gap 150 ms: the margin per gap is wide enough for a loaded machine.
      { idleTimeoutMs: 1_000 },
    );
    const { streamed, error } = await streamOutcome(provider.stream(request, BACKGROUND_CONTEXT));
    expect(error).toBeNull();
    expect(streamed.at(-1)).toEqual({ type: 'done', stopReason: 'stop' });
  });

  it('refuses an idle timeout that is not a positive whole number of milliseconds up to five minutes', () => {
    const options = { id: 'x', name: 'X', baseUrl: 'http://127.0.0.1:9/v1', models: [] };
    for (const idleTimeoutMs of [0, -1, 1.5, 300_001, Number.NaN]) {
      expect(() => createOpenAICompatibleProvider({ ...options, idleTimeoutMs })).toThrow(RangeError);
    }
  });
});

describe('a server that is rate limited or unavailable', () => {
  it('is retried when it says when, and the turn answers', async () => {
    const provider = await providerFor(inTurn(rateLimited('0'), rateLimited('0', 503), answer));
    const { streamed, error } = await streamOutcome(provider.stream(request, BACKGROUND_CONTEXT));
    expect(error).toBeNull();
    expect(streamed).toEqual([
      { type: 'text_delta', delta: 'ok' },
      { type: 'done', stopReason: 'stop' },
    ]);
    expect(server?.requests).toHaveLength(3);
  });

  it('reads Retry-After as an HTTP date', async () => {
    const past = new Date(Date.now() - 60_000).toUTCString();
    const provider = await providerFor(inTurn(rateLimited(past), answer));
    expect((await streamOutcome(provider.stream(request, BACKGROUND_CONTEXT))).error).toBeNull();
    expect(server?.requests).toHaveLength(2);
  });

  it('is retried at most twice, even when it keeps saying "now"', async () => {
    const provider = await providerFor(rateLimited('0'));
    const { error } = await streamOutcome(provider.stream(request, BACKGROUND_CONTEXT));
    expect(error).toMatchObject({
      code: 'http_status',
      message: 'Local is rate limited (HTTP 429); retry after 0 s: slow down',
    });
    expect(server?.requests).toHaveLength(3);
  });

  it('fails at once, after one request, when it does not say when to retry', async () => {
    const provider = await providerFor(rateLimited(null));
    const { error } = await streamOutcome(provider.stream(request, BACKGROUND_CONTEXT));
    expect(error).toMatchObject({ code: 'http_status', message: 'Local is rate limited (HTTP 429): slow down' });
    expect(server?.requests).toHaveLength(1);
  });

  it('fails at once, saying when to retry, when the wait is beyond the budget', async () => {
    const provider = await providerFor(rateLimited('120', 503));
    const { error } = await streamOutcome(provider.stream(request, BACKGROUND_CONTEXT));
    expect(error).toMatchObject({
      code: 'http_status',
      message: 'Local is unavailable (HTTP 503); retry after 120 s: slow down',
    });
    expect(server?.requests).toHaveLength(1);
  });

  it('never retries any other status, whatever its Retry-After', async () => {
    const provider = await providerFor(rateLimited('0', 500));
    const { error } = await streamOutcome(provider.stream(request, BACKGROUND_CONTEXT));
    expect(error?.message).toMatch(/^Local answered HTTP 500/);
    expect(server?.requests).toHaveLength(1);
  });

  it('ends at once, aborted, when the caller aborts during the wait', async () => {
    let sent!: () => void;
    const answered = new Promise<void>((resolve) => (sent = resolve));
    // Longer than the test's own timeout: only a prompt abort lets the test finish.
    const provider = await providerFor((_request, response) => {
      response.writeHead(429, { 'retry-after': '25' });
      response.end('', sent);
    });
    const controller = new AbortController();
    const ended = streamOutcome(provider.stream(request, withAbortSignal(controller.signal, BACKGROUND_CONTEXT)));
    await answered;
    await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    expect((await ended).error?.code).toBe('aborted');
    expect(server?.requests).toHaveLength(1);
  });
});

describe('a 200 that is not an event stream', () => {
  it('fails as malformed with the JSON error it carried', async () => {
    const provider = await providerFor((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: 'model is loading' } }));
    });
    const { error } = await streamOutcome(provider.stream(request, BACKGROUND_CONTEXT));
    expect(error).toMatchObject({
      code: 'malformed',
      message: 'Local answered with JSON instead of an event stream: model is loading',
    });
  });
});
