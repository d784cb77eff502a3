import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { Chat, TranscriptReplica } from '@pi/chat';
import { chatSessionFacet } from '@pi/chat-session';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { startTestSessionHost } from '@pi/host-session/testing';
import {
  anthropicAnswerEvents,
  beginEventStream,
  chunkEvent,
  startFakeChatServer,
  type FakeChatServer,
} from '@pi/model-providers/testing';
import { Models } from '@pi/providers-builtin';
import { createProvidersBuiltinFacet } from '@pi/providers-builtin-session';
import { createSystemPromptFacet } from '@pi/system-prompt-session';
import { TRANSPORTS, eventually } from '@pi/test-support';
import { toolsCoreSessionFacet } from '@pi/tools-core-session';

// Each native protocol drives a real session (providers, system prompt, coding tools, chat) over each transport:
// a local server speaking the provider's wire format asks for `read notes.txt`, then answers from its result.
const KEY = 'key-for-the-local-server';
const ANSWER = 'The notes say: ship on Friday.';

interface Protocol {
  /** The built-in provider, pointed at the local server by models.json. */
  readonly provider: 'anthropic' | 'openai' | 'google';
  readonly modelId: string;
  readonly baseUrl: (server: FakeChatServer) => string;
  readonly path: RegExp;
  /** Writes the first turn (the tool call) or the second (the answer) in the wire format. */
  answer(response: ServerResponse, turn: 'call' | 'answer'): void;
  /** The system prompt and the tool names of a request body. */
  sent(body: Record<string, unknown>): { system: string; tools: string[] };
  /** The tool's result as the second request carries it back. */
  result(body: Record<string, unknown>): unknown;
}

const sse = (events: readonly object[]) => events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join('');

const PROTOCOLS: readonly Protocol[] = [
  {
    provider: 'anthropic',
    modelId: 'claude-sonnet-4-5',
    baseUrl: (server) => server.baseUrl.replace(/\/v1$/, ''),
    path: /^\/v1\/messages$/,
    answer(response, turn) {
      response.end(
        (turn === 'call'
          ? anthropicAnswerEvents({ toolCalls: [{ id: 'toolu_1', name: 'read', input: { path: 'notes.txt' } }] })
          : anthropicAnswerEvents({ text: ANSWER, usage: { input: 30, output: 9 } })
        ).join(''),
      );
    },
    sent: (body) => ({
      system: ((body['system'] as Array<{ text: string }>)[0] ?? { text: '' }).text,
      tools: (body['tools'] as Array<{ name: string }>).map((tool) => tool.name),
    }),
    result: (body) => (body['messages'] as Array<{ content: unknown }>).at(-1)?.content,
  },
  {
    provider: 'openai',
    modelId: 'gpt-5',
    baseUrl: (server) => server.baseUrl,
    path: /^\/v1\/chat\/completions$/,
    answer(response, turn) {
      const usage = { choices: [], usage: { prompt_tokens: 30, completion_tokens: 9 } };
      response.end(
        turn === 'call'
          ? chunkEvent({
              tool_calls: [
                { index: 0, id: 'call_1', type: 'function', function: { name: 'read', arguments: '{"path":' } },
              ],
            }) +
              chunkEvent({ tool_calls: [{ index: 0, function: { arguments: '"notes.txt"}' } }] }, 'tool_calls') +
              sse([usage]) +
              'data: [DONE]\n\n'
          : chunkEvent({ content: ANSWER }, 'stop') + sse([usage]) + 'data: [DONE]\n\n',
      );
    },
    sent: (body) => ({
      system: String((body['messages'] as Array<{ role: string; content: string }>)[0]?.content ?? ''),
      tools: (body['tools'] as Array<{ function: { name: string } }>).map((tool) => tool.function.name),
    }),
    result: (body) => (body['messages'] as unknown[]).at(-1),
  },
  {
    provider: 'google',
    modelId: 'gemini-2.5-pro',
    baseUrl: (server) => server.baseUrl.replace(/\/v1$/, '/v1beta'),
    path: /^\/v1beta\/models\/gemini-2\.5-pro:streamGenerateContent\?alt=sse$/,
    answer(response, turn) {
      const usageMetadata = { promptTokenCount: 30, candidatesTokenCount: 9 };
      const parts =
        turn === 'call'
          ? [{ functionCall: { name: 'read', args: { path: 'notes.txt' } }, thoughtSignature: 'c2ln' }]
          : [{ text: ANSWER }];
      response.end(sse([{ candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP' }], usageMetadata }]));
    },
    sent: (body) => ({
      system: ((body['systemInstruction'] as { parts: Array<{ text: string }> }).parts[0] ?? { text: '' }).text,
      tools:
        (body['tools'] as Array<{ functionDeclarations: Array<{ name: string }> }>)[0]?.functionDeclarations.map(
          (tool) => tool.name,
        ) ?? [],
    }),
    result: (body) => (body['contents'] as Array<{ parts: unknown }>).at(-1)?.parts,
  },
];

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.each(TRANSPORTS)('a session driven by each native protocol over %s', (transport) => {
  it.each(PROTOCOLS.map((protocol) => [protocol.provider, protocol] as const))(
    '%s: the system prompt with AGENTS.md and the tools go out, the tool runs, its result goes back, usage and cost come in',
    async (_name, protocol) => {
      const server = await startFakeChatServer((request, response) => {
        beginEventStream(response);
        const hasResult = JSON.stringify(request.body).includes('ship on Friday');
        protocol.answer(response, hasResult ? 'answer' : 'call');
      });
      cleanups.push(() => server.close());
      const directory = await mkdtemp(join(tmpdir(), 'pi-native-'));
      cleanups.push(() => rm(directory, { recursive: true, force: true }));
      await mkdir(join(directory, 'config'), { recursive: true });
      await mkdir(join(directory, 'project'), { recursive: true });
      await writeFile(
        join(directory, 'config', 'models.json'),
        JSON.stringify({ providers: { [protocol.provider]: { baseUrl: protocol.baseUrl(server) } } }),
      );
      await writeFile(join(directory, 'project', 'AGENTS.md'), 'Release notes live in notes.txt.');
      await writeFile(join(directory, 'project', 'notes.txt'), 'ship on Friday\n');
      const env = { ANTHROPIC_API_KEY: KEY, OPENAI_API_KEY: KEY, GEMINI_API_KEY: KEY };
      const session = await startTestSessionHost({
        transport,
        directory,
        facets: [
          { id: '@pi/providers-builtin', facet: createProvidersBuiltinFacet({ env }) },
          { id: '@pi/system-prompt', facet: createSystemPromptFacet() },
          { id: '@pi/chat', facet: chatSessionFacet },
          { id: '@pi/tools-core', facet: toolsCoreSessionFacet },
        ],
      });
      cleanups.push(() => session.close());
      const client = await session.connect();
      await (
        await client.use(Models)
      ).select({ provider: protocol.provider, modelId: protocol.modelId }, BACKGROUND_CONTEXT);
      const chat = await client.use(Chat);
      const transcript = new TranscriptReplica(chat);
      cleanups.push(async () => transcript.dispose());
      const settled = new Promise<string>((resolve) =>
        chat.events.subscribe((event) => event.type === 'settled' && resolve(event.outcome)),
      );
      expect(await chat.prompt({ text: 'what do the notes say?' }, BACKGROUND_CONTEXT)).toMatchObject({
        accepted: true,
      });
      expect(await settled).toBe('completed');

      const requests = server.requests as Array<{ url: string; body: Record<string, unknown> }>;
      expect(requests).toHaveLength(2);
      expect(requests.every((request) => protocol.path.test(request.url))).toBe(true);
      const first = protocol.sent(requests[0]?.body ?? {});
      expect(first.system).toContain('Release notes live in notes.txt.');
      expect(first.system).toMatch(/^- read: /m);
      expect(first.tools).toContain('read');
      expect(JSON.stringify(protocol.result(requests[1]?.body ?? {}))).toContain('ship on Friday');

      await eventually(() => transcript.entries.some((entry) => entry.kind === 'assistant' && entry.text === ANSWER));
      const answer = transcript.entries.filter((entry) => entry.kind === 'assistant').at(-1);
      expect(answer).toMatchObject({ text: ANSWER, usage: { input: 30, output: 9 } });
      expect(answer?.kind === 'assistant' ? answer.usage?.cost : undefined).toBeGreaterThan(0);
    },
  );
});
