import { ProviderError, type ProviderEvent, type ProviderRequest } from '@pi/agent';
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

const apiKey = 'sk-test-secret-123';
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
    baseUrl: `${server.baseUrl}/`,
    models: [{ modelId: 'model-a', name: 'Model A' }],
    apiKey: async () => apiKey,
    ...overrides,
  });
}

const request: ProviderRequest = {
  modelId: 'model-a',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  tools: [
    {
      name: 'read',
      description: 'Read a file',
      parameters: { type: 'object', properties: { path: { type: 'string' } } },
    },
  ],
  thinkingLevel: 'off',
};

async function collect(events: AsyncIterable<ProviderEvent>): Promise<ProviderEvent[]> {
  const collected: ProviderEvent[] = [];
  for await (const event of events) collected.push(event);
  return collected;
}

async function rejectionOf(events: AsyncIterable<ProviderEvent>): Promise<ProviderError> {
  const thrown = await collect(events).then(
    () => new Error('the stream did not fail'),
    (error: unknown) => error,
  );
  expect(thrown).toBeInstanceOf(ProviderError);
  return thrown as ProviderError;
}

describe('createOpenAICompatibleProvider', () => {
  it('streams text from SSE chunks split mid-event, skipping keep-alive comments', async () => {
    const provider = await providerFor(async (_request, response) => {
      beginEventStream(response);
      const wire =
        `: keep-alive\r\n\r\n${chunkEvent({ role: 'assistant', content: 'Hel' })}${chunkEvent({ content: 'lo!' })}`.replaceAll(
          '\n',
          '\r\n',
        );
      await writePiece(response, wire.slice(0, 40));
      await writePiece(response, wire.slice(40, 97));
      await writePiece(response, wire.slice(97));
      await writePiece(response, chunkEvent({}, 'stop'));
      response.end('data: [DONE]\n\n');
    });
    expect(await collect(provider.stream(request, BACKGROUND_CONTEXT))).toEqual([
      { type: 'text_delta', delta: 'Hel' },
      { type: 'text_delta', delta: 'lo!' },
      { type: 'done', stopReason: 'stop' },
    ]);
  });

  it('sends the key as a bearer token and the mapped messages and tools', async () => {
    const provider = await providerFor((_request, response) => {
      beginEventStream(response);
      response.end(`${chunkEvent({}, 'stop')}data: [DONE]\n\n`);
    });
    await collect(provider.stream(request, BACKGROUND_CONTEXT));
    const received = server?.requests[0];
    expect(received?.method).toBe('POST');
    expect(received?.url).toBe('/v1/chat/completions');
    expect(received?.headers.authorization).toBe(`Bearer ${apiKey}`);
    expect(received?.body).toEqual({
      model: 'model-a',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'hi' }],
      tools: [
        {
          type: 'function',
          function: {
            name: 'read',
            description: 'Read a file',
            parameters: { type: 'object', properties: { path: { type: 'string' } } },
          },
        },
      ],
    });
  });

  it('emits tool calls whose arguments were streamed in fragments', async () => {
    const provider = await providerFor(async (_request, response) => {
      beginEventStream(response);
      await writePiece(
        response,
        chunkEvent({
          tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'read', arguments: '' } }],
        }),
      );
      await writePiece(response, chunkEvent({ tool_calls: [{ index: 0, function: { arguments: '{"path":' } }] }));
      await writePiece(response, chunkEvent({ tool_calls: [{ index: 0, function: { arguments: '"a.txt"}' } }] }));
      response.end(`${chunkEvent({}, 'tool_calls')}data: [DONE]\n\n`);
    });
    expect(await collect(provider.stream(request, BACKGROUND_CONTEXT))).toEqual([
      { type: 'tool_call', id: 'call_1', name: 'read', arguments: { path: 'a.txt' } },
      { type: 'done', stopReason: 'tool_calls' },
    ]);
  });

  it('fails with http_status carrying the status and the JSON error message, never the key', async () => {
    const provider = await providerFor((_request, response) => {
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ error: { message: `Incorrect API key provided: ${apiKey}`, type: 'invalid_request_error' } }),
      );
    });
    const error = await rejectionOf(provider.stream(request, BACKGROUND_CONTEXT));
    expect(error.code).toBe('http_status');
    expect(error.message).toContain('401');
    expect(error.message).toContain('Incorrect API key provided');
    expect(error.message).not.toContain(apiKey);
  });

  it('fails with http_status for a plain-text server error', async () => {
    const provider = await providerFor((_request, response) => {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end('upstream exploded');
    });
    const error = await rejectionOf(provider.stream(request, BACKGROUND_CONTEXT));
    expect(error).toMatchObject({ code: 'http_status', message: expect.stringMatching(/500.*upstream exploded/) });
  });

  it('fails with no_credentials before any request when there is no key', async () => {
    const provider = await providerFor(() => undefined, { apiKey: async () => undefined });
    const error = await rejectionOf(provider.stream(request, BACKGROUND_CONTEXT));
    expect(error.code).toBe('no_credentials');
    expect(server?.requests).toEqual([]);
  });

  it('sends no Authorization header to a server configured without a key', async () => {
    const provider = await providerFor(
      (_request, response) => {
        beginEventStream(response);
        response.end(`${chunkEvent({ content: 'ok' }, 'stop')}data: [DONE]\n\n`);
      },
      { apiKey: undefined },
    );
    await collect(provider.stream(request, BACKGROUND_CONTEXT));
    expect(server?.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('fails with stream_dropped when the server destroys the socket mid-stream', async () => {
    const provider = await providerFor(async (_request, response, raw) => {
      beginEventStream(response);
      await writePiece(response, chunkEvent({ content: 'partial' }));
      raw.socket.destroy();
    });
    const events: ProviderEvent[] = [];
    const error = await rejectionOf(
      (async function* () {
        for await (const event of provider.stream(request, BACKGROUND_CONTEXT)) {
          events.push(event);
          yield event;
        }
      })(),
    );
    expect(events).toEqual([{ type: 'text_delta', delta: 'partial' }]);
    expect(error.code).toBe('stream_dropped');
  });

  it('fails with stream_dropped when the response ends without a finish reason or [DONE]', async () => {
    const provider = await providerFor((_request, response) => {
      beginEventStream(response);
      response.end(chunkEvent({ content: 'cut' }));
    });
    expect((await rejectionOf(provider.stream(request, BACKGROUND_CONTEXT))).code).toBe('stream_dropped');
  });

  it('fails with aborted and aborts the HTTP request when the context is aborted mid-stream', async () => {
    let requestClosed!: () => void;
    const closed = new Promise<void>((resolve) => (requestClosed = resolve));
    const provider = await providerFor(async (_request, response) => {
      response.on('close', requestClosed);
      beginEventStream(response);
      await writePiece(response, chunkEvent({ content: 'first' }));
      // The stream then stays open: only the client's abort can end it.
    });
    const controller = new AbortController();
    const stream = provider.stream(request, withAbortSignal(controller.signal, BACKGROUND_CONTEXT));
    const iterator = stream[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toEqual({ type: 'text_delta', delta: 'first' });
    const next = iterator.next();
    controller.abort();
    await expect(next).rejects.toMatchObject({ code: 'aborted' });
    await closed;
  });

  it('rejects a model it does not list with unknown_model', async () => {
    const provider = await providerFor(() => undefined);
    expect((await rejectionOf(provider.stream({ ...request, modelId: 'other' }, BACKGROUND_CONTEXT))).code).toBe(
      'unknown_model',
    );
  });

  it('fails with stream_dropped when the server cannot be reached', async () => {
    const unreachable = await startFakeChatServer(() => undefined);
    await unreachable.close();
    const provider = createOpenAICompatibleProvider({
      id: 'gone',
      name: 'Gone',
      baseUrl: unreachable.baseUrl,
      models: [{ modelId: 'model-a' }],
      apiKey: async () => apiKey,
    });
    const error = await rejectionOf(provider.stream(request, BACKGROUND_CONTEXT));
    expect(error.code).toBe('stream_dropped');
    expect(error.message).not.toContain(apiKey);
  });
});
