import type { ProviderRequest } from '@pi/agent';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { makeTestCertificates } from '@pi/transport-trpc/testing';
import { constants, createGzip } from 'node:zlib';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createOpenAICompatibleProvider, type OpenAICompatibleProviderOptions } from './openai-compatible-provider';
import {
  beginEventStream,
  chunkEvent,
  startFakeChatServer,
  writePiece,
  type FakeChatHandler,
  type FakeChatServerOptions,
} from './testing';
import { streamOutcome } from '../test/stream-outcome';
import { unresolvableInvalidNames } from '../test/unresolvable-names';

const request: ProviderRequest = {
  modelId: 'm',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  tools: [],
  thinkingLevel: 'off',
};

function provider(baseUrl: string, overrides: Partial<OpenAICompatibleProviderOptions> = {}) {
  return createOpenAICompatibleProvider({
    id: 'local',
    name: 'Local',
    baseUrl,
    models: [{ modelId: 'm' }],
    ...overrides,
  });
}

async function serve(handler: FakeChatHandler, options: FakeChatServerOptions = {}) {
  const server = await startFakeChatServer(handler, options);
  onTestFinished(() => server.close());
  return server;
}

const turn = (baseUrl: string, overrides: Partial<OpenAICompatibleProviderOptions> = {}) =>
  streamOutcome(provider(baseUrl, overrides).stream(request, BACKGROUND_CONTEXT));

describe('a turn over the built-in HTTP client', () => {
  it('streams an answer the server compresses with gzip, flushed event by event', async () => {
    const server = await serve(async (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
      const gzip = createGzip();
      gzip.pipe(response);
      for (const word of ['Grüße ', 'aus ', '世界']) {
        gzip.write(chunkEvent({ content: word }));
        await new Promise<void>((resolve) => gzip.flush(constants.Z_SYNC_FLUSH, () => resolve()));
      }
      gzip.end(`${chunkEvent({}, 'stop')}data: [DONE]\n\n`);
    });
    const { streamed, error } = await turn(server.baseUrl);
    expect(error).toBeNull();
    expect(streamed).toEqual([
      { type: 'text_delta', delta: 'Grüße ' },
      { type: 'text_delta', delta: 'aus ' },
      { type: 'text_delta', delta: '世界' },
      { type: 'done', stopReason: 'stop' },
    ]);
  });

  it('reads characters and events cut anywhere by the network, one byte per write', async () => {
    const wire = Buffer.from(`${chunkEvent({ content: 'né 🎉' })}${chunkEvent({}, 'stop')}data: [DONE]\n\n`);
    const server = await serve(async (_request, response) => {
      beginEventStream(response);
      for (const byte of wire) await writePiece(response, Buffer.from([byte]) as unknown as string);
      response.end();
    });
    const { streamed, error } = await turn(server.baseUrl);
    expect(error).toBeNull();
    expect(streamed).toEqual([
      { type: 'text_delta', delta: 'né 🎉' },
      { type: 'done', stopReason: 'stop' },
    ]);
  });

  it('sends the configured headers, and the protocol’s authorization wins over one configured in another case', async () => {
    const server = await serve((_request, response) => {
      beginEventStream(response);
      response.end(`${chunkEvent({}, 'stop')}data: [DONE]\n\n`);
    });
    await turn(server.baseUrl, {
      apiKey: async () => 'sk-1',
      headers: { 'X-Title': 'pi', Authorization: 'Basic bm8=' },
    });
    expect(server.requests[0]?.headers).toMatchObject({
      'x-title': 'pi',
      authorization: 'Bearer sk-1',
      accept: 'text/event-stream',
    });
  });

  it('runs turn after turn on one kept-alive connection', async () => {
    const server = await serve((_request, response) => {
      beginEventStream(response);
      response.end(`${chunkEvent({ content: 'ok' }, 'stop')}data: [DONE]\n\n`);
    });
    const local = provider(server.baseUrl);
    for (const _ of [1, 2, 3])
      expect((await streamOutcome(local.stream(request, BACKGROUND_CONTEXT))).error).toBeNull();
    expect(server.connections()).toBe(1);
  });

  it('fails against an HTTPS server whose certificate no CA the process trusts signed', async () => {
    const certificates = await makeTestCertificates();
    const server = await serve(
      (_request, response) => {
        beginEventStream(response);
        response.end(`${chunkEvent({ content: 'secure' }, 'stop')}data: [DONE]\n\n`);
      },
      { tls: certificates },
    );
    expect(await turn(server.baseUrl)).toEqual({
      streamed: [],
      error: expect.objectContaining({
        code: 'stream_dropped',
        message: 'cannot reach Local: unable to verify the first certificate (UNABLE_TO_VERIFY_LEAF_SIGNATURE)',
      }),
    });
  });
});

describe('a turn that fails on the network', () => {
  it('says the server refused the connection', async () => {
    const gone = await startFakeChatServer(() => undefined);
    await gone.close();
    const { error } = await turn(gone.baseUrl);
    expect(error?.code).toBe('stream_dropped');
    expect(error?.message).toMatch(/^cannot reach Local: connect ECONNREFUSED 127\.0\.0\.1:\d+$/);
  });

  it('says the name did not resolve', async () => {
    unresolvableInvalidNames();
    expect((await turn('http://no-such-host.invalid/v1')).error).toMatchObject({
      code: 'stream_dropped',
      message: 'cannot reach Local: getaddrinfo ENOTFOUND no-such-host.invalid',
    });
  });

  it('says the stream broke off when the connection is reset mid-stream, after what had arrived', async () => {
    const server = await serve(async (_request, response, raw) => {
      beginEventStream(response);
      await writePiece(response, chunkEvent({ content: 'partial' }));
      raw.socket.destroy();
    });
    expect(await turn(server.baseUrl)).toEqual({
      streamed: [{ type: 'text_delta', delta: 'partial' }],
      error: expect.objectContaining({
        code: 'stream_dropped',
        message: 'the Local stream broke off: aborted (ECONNRESET)',
      }),
    });
  });

  it('says the connection closed when it closes before an answer', async () => {
    const server = await serve((_request, _response, raw) => void raw.socket.destroy());
    expect((await turn(server.baseUrl)).error).toMatchObject({
      code: 'stream_dropped',
      message: 'cannot reach Local: socket hang up (ECONNRESET)',
    });
  });

  it('gives the status and the JSON error of a refusal, as before', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: 'bad thing' } }));
    });
    expect((await turn(server.baseUrl)).error).toMatchObject({
      code: 'http_status',
      message: 'Local answered HTTP 400 Bad Request: bad thing',
    });
  });

  it('gives a gzip-compressed JSON error as plainly', async () => {
    const { gzipSync } = await import('node:zlib');
    const server = await serve((_request, response) => {
      response.writeHead(401, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      response.end(gzipSync(JSON.stringify({ error: { message: 'no such key' } })));
    });
    expect((await turn(server.baseUrl)).error).toMatchObject({
      code: 'http_status',
      message: 'Local answered HTTP 401 Unauthorized: no such key',
    });
  });

  it('says a 2xx without a body has none', async () => {
    const server = await serve((_request, response) => void response.writeHead(204).end());
    expect((await turn(server.baseUrl)).error).toMatchObject({
      code: 'stream_dropped',
      message: 'Local answered without a body',
    });
  });
});
