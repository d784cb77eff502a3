import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Chat, TranscriptReplica } from '@pi/chat';
import { connect, type PiClient } from '@pi/client';
import { BACKGROUND_CONTEXT } from '@pi/context';
import {
  anthropicAnswerEvents,
  beginEventStream,
  startFakeChatServer,
  type FakeChatServer,
} from '@pi/model-providers/testing';
import { eventually } from '@pi/test-support';
import {
  PROCESS_TEST_TIMEOUT_MS,
  createSandbox,
  readConnectionFile,
  readSessionEntries,
  runPiSession,
  type SessionProcess,
  type SessionSandbox,
} from './pi-session-process';

const KEY = 'sk-ant-end-to-end-key';

/** The parts of a Messages request body this test reads. */
interface SentBody {
  system: Array<{ text: string }>;
  thinking: unknown;
  tools: Array<{ name: string }>;
  messages: unknown[];
}
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A server speaking the Messages API: the first turn reads notes.txt, the second answers from its result. */
async function startAnthropic(): Promise<FakeChatServer> {
  const turns = [
    anthropicAnswerEvents({
      thinking: { text: 'I should read the notes first.', signature: 'sig-e2e' },
      toolCalls: [{ id: 'toolu_e2e', name: 'read', input: { path: 'notes.txt' } }],
      usage: { input: 1_200, output: 40, cacheWrite: 1_000 },
    }),
    anthropicAnswerEvents({
      text: 'The notes say: ship on Friday.',
      usage: { input: 30, output: 9, cacheRead: 1_200 },
    }),
  ];
  const server = await startFakeChatServer((_, response) => {
    beginEventStream(response);
    response.end((turns.shift() ?? []).join(''));
  });
  cleanups.push(() => server.close());
  return server;
}

async function startSession(
  server: FakeChatServer,
): Promise<{ sandbox: SessionSandbox; sessionId: string; client: PiClient }> {
  const sandbox = await createSandbox();
  cleanups.push(() => sandbox.remove());
  await mkdir(sandbox.configDir, { recursive: true });
  const baseUrl = server.baseUrl.replace(/\/v1$/, '');
  await writeFile(join(sandbox.configDir, 'models.json'), JSON.stringify({ providers: { anthropic: { baseUrl } } }));
  await writeFile(
    join(sandbox.configDir, 'settings.json'),
    JSON.stringify({
      defaultModel: { provider: 'anthropic', modelId: 'claude-sonnet-4-5' },
      defaultThinkingLevel: 'low',
    }),
  );
  await writeFile(join(sandbox.cwd, 'AGENTS.md'), 'Release notes live in notes.txt.');
  await writeFile(join(sandbox.cwd, 'notes.txt'), 'ship on Friday\n');
  const process: SessionProcess = runPiSession(sandbox, sandbox.flags, { ANTHROPIC_API_KEY: KEY });
  cleanups.push(async () => void (await process.stop('SIGKILL')));
  const line = await process.listening();
  const { socketPath, token } = await readConnectionFile(line.connectionFile);
  const client = (await connect({ socketPath, token, reconnect: false }))._unsafeUnwrap();
  cleanups.push(() => client.close());
  return { sandbox, sessionId: line.sessionId, client };
}

describe('a session driven by the Anthropic Messages API', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('sends the system prompt with AGENTS.md and the tools, runs the tool call, returns its result, and records usage and cost', async () => {
    const server = await startAnthropic();
    const { sandbox, sessionId, client } = await startSession(server);
    const chat = await client.use(Chat);
    const transcript = new TranscriptReplica(chat);
    const settled = new Promise<string>((resolve) =>
      chat.events.subscribe((event) => event.type === 'settled' && resolve(event.outcome)),
    );
    expect(await chat.prompt({ text: 'what do the notes say?' }, BACKGROUND_CONTEXT)).toMatchObject({ accepted: true });
    expect(await settled).toBe('completed');

    const [first, second] = server.requests as Array<{ url: string; headers: Record<string, string>; body: SentBody }>;
    expect(first?.url).toBe('/v1/messages');
    expect(first?.headers['x-api-key']).toBe(KEY);
    const system = first?.body.system[0]?.text ?? '';
    expect(system).toContain('Release notes live in notes.txt.');
    expect(system).toMatch(/^- read: Read a text file/m);
    expect(system).toContain(`Working directory: ${sandbox.cwd}`);
    expect(first?.body.thinking).toEqual({ type: 'enabled', budget_tokens: 4_000 });
    expect(first?.body.tools.map((tool) => tool.name)).toContain('read');
    expect(second?.body.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'I should read the notes first.', signature: 'sig-e2e' },
          { type: 'tool_use', id: 'toolu_e2e', name: 'read', input: { path: 'notes.txt' } },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_e2e',
            content: 'ship on Friday',
            cache_control: { type: 'ephemeral' },
          },
        ],
      },
    ]);

    await eventually(
      () => transcript.complete && transcript.entries.some((entry) => entry.kind === 'assistant' && entry.text !== ''),
    );
    const answer = transcript.entries.filter((entry) => entry.kind === 'assistant').at(-1);
    expect(answer).toMatchObject({
      text: 'The notes say: ship on Friday.',
      usage: { input: 30, output: 9, cacheRead: 1_200, cacheWrite: 0 },
    });
    // Claude Sonnet 4.5's list prices: $3 input, $15 output, $0.30 cache reads per million tokens.
    expect(answer?.kind === 'assistant' ? answer.usage?.cost : undefined).toBeCloseTo(
      (30 * 3 + 9 * 15 + 1_200 * 0.3) / 1e6,
      12,
    );
    const durable = await readSessionEntries(sandbox.dataDir, sessionId);
    const firstAnswer = durable.find(
      (entry) => (entry['message'] as { role?: string } | undefined)?.role === 'assistant',
    );
    expect(firstAnswer?.['message']).toMatchObject({ usage: { input: 1_200, output: 40, cacheWrite: 1_000 } });
    expect(JSON.stringify(durable)).not.toContain(KEY);
  });
});
