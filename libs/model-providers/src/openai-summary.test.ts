import { openHarness, ProviderError, type AgentHarness, type SessionEntry, type SummaryRequest } from '@pi/agent';
import { createSessionDirectory, readSessionLines, testHarnessOptions, type SessionDirectory } from '@pi/agent/testing';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAICompatibleProvider } from './openai-compatible-provider';
import type { OpenAIMessage } from './openai-request';
import {
  beginEventStream,
  chunkEvent,
  startFakeChatServer,
  type FakeChatHandler,
  type FakeChatServer,
  type RecordedRequest,
} from './testing';

const apiKey = 'sk-summary-secret-4567890';
let server: FakeChatServer | undefined;
let directory: SessionDirectory | undefined;
let harness: AgentHarness | undefined;

afterEach(async () => {
  await harness?.close();
  await directory?.remove();
  await server?.close();
  harness = directory = server = undefined;
});

async function providerFor(handler: FakeChatHandler, contextWindow?: number) {
  server = await startFakeChatServer(handler);
  return createOpenAICompatibleProvider({
    id: 'local',
    name: 'Local',
    baseUrl: server.baseUrl,
    models: [{ modelId: 'model-a', ...(contextWindow === undefined ? {} : { contextWindow }) }],
    apiKey: async () => apiKey,
  });
}

const answer =
  (text: string): FakeChatHandler =>
  (_request, response) => {
    beginEventStream(response);
    response.end(`${chunkEvent({ content: text })}${chunkEvent({}, 'stop')}data: [DONE]\n\n`);
  };
const messagesOf = (request: RecordedRequest | undefined) =>
  ((request?.body ?? {}) as { messages?: OpenAIMessage[] }).messages ?? [];
const isSummaryRequest = (request: RecordedRequest) => messagesOf(request)[0]?.role === 'system';

const summaryRequest: SummaryRequest = {
  modelId: 'model-a',
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'fix the parser' }] },
    {
      role: 'assistant',
      content: [{ type: 'tool_call', id: 'c1', name: 'read', arguments: { path: 'src/parse.ts' } }],
      model: 'local/model-a',
      stopReason: 'tool_calls',
    },
  ],
  previousSummary: null,
  instructions: 'keep the file names',
  maxInputTokens: null,
};

describe('the OpenAI-compatible summary request', () => {
  it('streams a chat completion of the summary prompt, with the key, without tools, and returns its text', async () => {
    const provider = await providerFor(answer('The user asked to fix src/parse.ts.'));
    expect(await provider.summarize?.(summaryRequest, BACKGROUND_CONTEXT)).toBe('The user asked to fix src/parse.ts.');
    const [sent] = server?.requests ?? [];
    expect(sent?.url).toBe('/v1/chat/completions');
    expect(sent?.headers.authorization).toBe(`Bearer ${apiKey}`);
    expect(sent?.body).toMatchObject({ model: 'model-a', stream: true });
    expect(sent?.body).not.toHaveProperty('tools');
    const [system, user] = messagesOf(sent);
    expect(system?.role).toBe('system');
    expect(user?.content).toContain('[User]: fix the parser');
    expect(user?.content).toContain('[Assistant called read]: {"path":"src/parse.ts"}');
    expect(user?.content).toContain('Instructions from the user for this summary: keep the file names');
  });

  it('fails like a turn: http_status with the server’s message, the key redacted', async () => {
    const provider = await providerFor((_request, response) => {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: `upstream refused key ${apiKey}` } }));
    });
    const failure = await provider.summarize?.(summaryRequest, BACKGROUND_CONTEXT).then(
      () => new Error('the summary did not fail'),
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ProviderError);
    expect((failure as ProviderError).code).toBe('http_status');
    expect((failure as ProviderError).message).toContain('upstream refused key [redacted]');
    expect((failure as ProviderError).message).not.toContain(apiKey);
  });

  it('rejects a model it does not list with unknown_model, before any request', async () => {
    const provider = await providerFor(answer('never'));
    await expect(
      provider.summarize?.({ ...summaryRequest, modelId: 'other' }, BACKGROUND_CONTEXT),
    ).rejects.toMatchObject({
      code: 'unknown_model',
    });
    expect(server?.requests).toEqual([]);
  });
});

describe('compaction in a harness over a local server', () => {
  const big = 'x'.repeat(2800);
  /** Turns answer with ~720 estimated tokens each; a summary request is answered "SUMMARY", or fails. */
  const serve =
    (summary: 'ok' | 'fail'): FakeChatHandler =>
    (request, response, raw) => {
      if (!isSummaryRequest(request)) return answer(`answer ${big}`)(request, response, raw);
      if (summary === 'ok') return answer('SUMMARY of the early work')(request, response, raw);
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(`overloaded, key ${apiKey}`);
    };

  async function start(summary: 'ok' | 'fail', contextWindow: number) {
    const provider = await providerFor(serve(summary), contextWindow);
    directory = await createSessionDirectory();
    harness = (await openHarness(testHarnessOptions({ file: directory.file, providers: [provider] })))._unsafeUnwrap();
    return harness;
  }

  async function exchange(text: string) {
    if (harness === undefined) throw new Error('no harness');
    const accepted = await harness.main.prompt(
      [{ role: 'user', content: [{ type: 'text', text }] }],
      BACKGROUND_CONTEXT,
    );
    return harness.main.settled(accepted._unsafeUnwrap().operationId);
  }

  const compactionEntries = async () =>
    ((await readSessionLines(directory?.file ?? '')) as unknown as SessionEntry[]).filter(
      (entry) => entry.kind === 'compaction',
    );

  it('sends the summary and the kept tail after compacting, not the old messages', async () => {
    await start('ok', 2000);
    for (const prompt of ['first', 'second', 'third', 'fourth'])
      expect((await exchange(prompt)).outcome).toBe('completed');
    const requests = server?.requests ?? [];
    expect(requests.map(isSummaryRequest)).toEqual([false, false, false, true, false]);
    const after = JSON.stringify(requests[4]?.body);
    expect(after).toContain('SUMMARY of the early work');
    expect(after).toContain('fourth');
    expect(after).not.toContain('first');
    expect(after).not.toContain('third');
    expect(await compactionEntries()).toHaveLength(1);
  });

  it('whose summary request fails writes nothing; the request goes out whole while it fits the window', async () => {
    await start('fail', 2400);
    for (const prompt of ['first', 'second', 'third', 'fourth'])
      expect((await exchange(prompt)).outcome).toBe('completed');
    const requests = server?.requests ?? [];
    expect(requests.map(isSummaryRequest)).toEqual([false, false, false, true, false]);
    expect(JSON.stringify(requests[4]?.body)).toContain('first');
    expect(await compactionEntries()).toEqual([]);
  });

  it('whose summary request fails when the request would not fit fails the run, the key redacted', async () => {
    await start('fail', 2000);
    for (const prompt of ['first', 'second', 'third']) await exchange(prompt);
    const settled = await exchange('fourth');
    expect(settled.outcome).toBe('failed');
    expect(settled.error).toMatch(/^compaction_failed: .*HTTP 500/);
    expect(settled.error).not.toContain(apiKey);
    expect(await compactionEntries()).toEqual([]);
  });
});
