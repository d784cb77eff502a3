import type { ProviderEvent, ProviderRequest } from '@pi/agent';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { afterEach, describe, expect, it } from 'vitest';
import { createGeminiProvider } from './gemini-provider';
import { beginEventStream, startFakeChatServer, type FakeChatHandler, type FakeChatServer } from './testing';

const apiKey = 'AIza-test-secret-key-0042';
let server: FakeChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function providerFor(handler: FakeChatHandler) {
  server = await startFakeChatServer(handler);
  return createGeminiProvider({
    id: 'google',
    name: 'Google',
    baseUrl: server.baseUrl.replace(/\/v1$/, '/v1beta'),
    models: [{ modelId: 'gemini-test', name: 'Gemini Test', reasoning: true, maxOutputTokens: 1_000 }],
    apiKey: async () => apiKey,
  });
}

const request: ProviderRequest = {
  modelId: 'gemini-test',
  systemPrompt: 'You are pi.',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  tools: [],
  thinkingLevel: 'off',
};

async function collect(events: AsyncIterable<ProviderEvent>): Promise<ProviderEvent[]> {
  const collected: ProviderEvent[] = [];
  for await (const event of events) collected.push(event);
  return collected;
}

describe('the Gemini provider', () => {
  it('posts streamGenerateContent as SSE with its key header, and streams the answer with usage', async () => {
    const provider = await providerFor((_, response) => {
      beginEventStream(response);
      response.write(
        `data: ${JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: 'Hi ' }] } }] })}\r\n\r\n`,
      );
      response.end(
        `data: ${JSON.stringify({
          candidates: [{ content: { role: 'model', parts: [{ text: 'there.' }] }, finishReason: 'STOP' }],
          usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 3 },
        })}\r\n\r\n`,
      );
    });
    expect(await collect(provider.stream(request, BACKGROUND_CONTEXT))).toEqual([
      { type: 'text_delta', delta: 'Hi ' },
      { type: 'text_delta', delta: 'there.' },
      { type: 'usage', usage: { input: 9, output: 3, cacheRead: 0, cacheWrite: 0 } },
      { type: 'done', stopReason: 'stop' },
    ]);
    const sent = server?.requests[0];
    expect(sent?.url).toBe('/v1beta/models/gemini-test:streamGenerateContent?alt=sse');
    expect(sent?.headers['x-goog-api-key']).toBe(apiKey);
    expect(sent?.body).toMatchObject({ systemInstruction: { parts: [{ text: 'You are pi.' }] } });
  });

  it("fails with the server's words and never the key when the request is refused", async () => {
    const provider = await providerFor((_, response) => {
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ error: { code: 400, message: `API key not valid: ${apiKey}`, status: 'INVALID_ARGUMENT' } }),
      );
    });
    const failure = await collect(provider.stream(request, BACKGROUND_CONTEXT)).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'http_status', message: expect.stringContaining('API key not valid') });
    expect((failure as Error).message).not.toContain(apiKey);
  });
});
