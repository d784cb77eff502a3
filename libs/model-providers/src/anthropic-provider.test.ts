import { ProviderError, type ProviderEvent, type ProviderRequest } from '@pi/agent';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { afterEach, describe, expect, it } from 'vitest';
import { ANTHROPIC_VERSION, createAnthropicProvider } from './anthropic-provider';
import {
  anthropicAnswerEvents,
  beginEventStream,
  startFakeChatServer,
  type FakeChatHandler,
  type FakeChatServer,
} from './testing';

const apiKey = 'sk-ant-test-secret-42';
let server: FakeChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function providerFor(handler: FakeChatHandler, key: string | undefined = apiKey) {
  server = await startFakeChatServer(handler);
  return createAnthropicProvider({
    id: 'anthropic',
    name: 'Anthropic',
    baseUrl: server.baseUrl.replace(/\/v1$/, ''),
    models: [{ modelId: 'claude-test', name: 'Claude Test', reasoning: true, maxOutputTokens: 32_000 }],
    apiKey: async () => key,
  });
}

const request: ProviderRequest = {
  modelId: 'claude-test',
  systemPrompt: 'You are pi.',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'read a.txt' }] }],
  tools: [{ name: 'read', description: 'Read a file.', parameters: { type: 'object' } }],
  thinkingLevel: 'high',
};

async function collect(events: AsyncIterable<ProviderEvent>): Promise<ProviderEvent[]> {
  const collected: ProviderEvent[] = [];
  for await (const event of events) collected.push(event);
  return collected;
}

const answering =
  (...bodies: string[][]): FakeChatHandler =>
  (_, response) => {
    beginEventStream(response);
    response.end((bodies.shift() ?? []).join(''));
  };

describe('the Anthropic provider', () => {
  it('posts a Messages request with its key and version, and streams the answer with usage', async () => {
    const provider = await providerFor(
      answering(
        anthropicAnswerEvents({
          thinking: { text: 'Read it.', signature: 'sig' },
          toolCalls: [{ id: 'toolu_1', name: 'read', input: { path: 'a.txt' } }],
          usage: { input: 50, output: 20, cacheRead: 1_000, cacheWrite: 200 },
        }),
      ),
    );
    const events = await collect(provider.stream(request, BACKGROUND_CONTEXT));
    expect(events).toEqual([
      { type: 'thinking', text: 'Read it.', signature: 'sig' },
      { type: 'tool_call', id: 'toolu_1', name: 'read', arguments: { path: 'a.txt' } },
      { type: 'usage', usage: { input: 50, output: 20, cacheRead: 1_000, cacheWrite: 200 } },
      { type: 'done', stopReason: 'tool_calls' },
    ]);
    const sent = server?.requests[0];
    expect(sent?.url).toBe('/v1/messages');
    expect(sent?.headers['x-api-key']).toBe(apiKey);
    expect(sent?.headers['anthropic-version']).toBe(ANTHROPIC_VERSION);
    expect(sent?.headers.authorization).toBeUndefined();
    expect(sent?.body).toMatchObject({
      model: 'claude-test',
      stream: true,
      system: [{ type: 'text', text: 'You are pi.' }],
      thinking: { type: 'enabled', budget_tokens: 16_000 },
      tools: [{ name: 'read', input_schema: { type: 'object' } }],
    });
  });

  it('retries an overloaded server (529) after a short wait, and a rate limit after its Retry-After', async () => {
    const statuses = [529, 429];
    const provider = await providerFor((_, response) => {
      const status = statuses.shift();
      if (status !== undefined) {
        response.writeHead(status, {
          'content-type': 'application/json',
          ...(status === 429 ? { 'retry-after': '0' } : {}),
        });
        response.end(JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }));
        return;
      }
      beginEventStream(response);
      response.end(anthropicAnswerEvents({ text: 'ok' }).join(''));
    });
    const events = await collect(provider.stream(request, BACKGROUND_CONTEXT));
    expect(events.at(-1)).toEqual({ type: 'done', stopReason: 'stop' });
    expect(server?.requests).toHaveLength(3);
  });

  it("fails with the server's own words and never the key it echoed", async () => {
    const provider = await providerFor((_, response) => {
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          type: 'error',
          error: { type: 'authentication_error', message: `invalid x-api-key ${apiKey}` },
        }),
      );
    });
    const failure = await collect(provider.stream(request, BACKGROUND_CONTEXT)).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProviderError);
    expect(failure).toMatchObject({ code: 'http_status', message: expect.stringContaining('HTTP 401') });
    expect((failure as Error).message).toContain('invalid x-api-key');
    expect((failure as Error).message).not.toContain(apiKey);
  });

  it('says context_overflow when the server refuses the prompt as too long, so the run can compact and retry', async () => {
    const provider = await providerFor((_, response) => {
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          type: 'error',
          error: { type: 'invalid_request_error', message: 'prompt is too long: 212345 tokens > 200000 maximum' },
        }),
      );
    });
    await expect(collect(provider.stream(request, BACKGROUND_CONTEXT))).rejects.toMatchObject({
      code: 'context_overflow',
      message: expect.stringContaining('prompt is too long'),
    });
  });

  it('fails before sending anything without a key, and for a model it does not offer', async () => {
    const provider = await providerFor(answering(), '');
    await expect(collect(provider.stream(request, BACKGROUND_CONTEXT))).rejects.toMatchObject({
      code: 'no_credentials',
    });
    await expect(
      collect(provider.stream({ ...request, modelId: 'claude-none' }, BACKGROUND_CONTEXT)),
    ).rejects.toMatchObject({ code: 'unknown_model' });
    expect(server?.requests).toHaveLength(0);
  });

  it('writes a compaction summary with a plain request: no tools, no thinking', async () => {
    const provider = await providerFor(answering(anthropicAnswerEvents({ text: 'The summary.' })));
    const summary = await provider.summarize?.(
      {
        modelId: 'claude-test',
        messages: request.messages,
        instructions: null,
        previousSummary: null,
        maxInputTokens: null,
      },
      BACKGROUND_CONTEXT,
    );
    expect(summary).toBe('The summary.');
    expect(server?.requests[0]?.body).not.toHaveProperty('tools');
    expect(server?.requests[0]?.body).not.toHaveProperty('thinking');
  });
});
