import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionEntry } from '@pi/agent';
import { chatSessionFacet, pluginId as chatId, projectTranscript } from '@pi/chat-session';
import { chatTuiFacet } from '@pi/chat-tui';
import { startTestSessionHost, type TestSessionHost } from '@pi/host-session/testing';
import { startTestTuiHost } from '@pi/host-tui/testing';
import {
  beginEventStream,
  chunkEvent,
  startFakeChatServer,
  type FakeChatServer,
  type RecordedRequest,
} from '@pi/model-providers/testing';
import { createProvidersBuiltinFacet, pluginId as providersId } from '@pi/providers-builtin-session';
import { providersBuiltinTuiFacet } from '@pi/providers-builtin-tui';
import { TRANSPORTS, type TransportKind } from '@pi/test-support';
import { hides, shows } from './session-and-tui';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface ChatMessage {
  role: string;
  content: string | null;
}
const messagesOf = (request: RecordedRequest): ChatMessage[] =>
  ((request.body ?? {}) as { messages?: ChatMessage[] }).messages ?? [];
const isCompletion = (request: RecordedRequest) => request.url === '/v1/chat/completions';
const isSummary = (request: RecordedRequest) => messagesOf(request)[0]?.role === 'system';

/**
 * A local OpenAI-compatible server: each turn answers ~700 estimated tokens of filler and "end of answer <n>", so a model
 * with a window of 2000 tokens passes 80 % at the fourth prompt; a summary request (the one with a system prompt)
 * answers with a recognisable summary.
 */
async function localServer(): Promise<FakeChatServer> {
  let turns = 0;
  const server = await startFakeChatServer((request, response) => {
    const text = isSummary(request) ? 'SUMMARY of the early work' : `${'x '.repeat(1400)}end of answer ${turns++}`;
    beginEventStream(response);
    response.end(`${chunkEvent({ content: text })}${chunkEvent({}, 'stop')}data: [DONE]\n\n`);
  });
  cleanups.push(() => server.close());
  return server;
}

/** A session running the built-in providers (with models.json naming the local server) and chat, and a TUI. */
async function start(transport: TransportKind, server: FakeChatServer) {
  const directory = await mkdtemp(join(tmpdir(), 'pi-compaction-'));
  cleanups.push(() => rm(directory, { recursive: true, force: true }));
  await mkdir(join(directory, 'config'), { recursive: true });
  const models = { providers: { local: { baseUrl: server.baseUrl, models: [{ id: 'small', contextWindow: 2000 }] } } };
  await writeFile(join(directory, 'config', 'models.json'), JSON.stringify(models));
  const session = await startTestSessionHost({
    transport,
    directory,
    facets: [
      { id: providersId, facet: createProvidersBuiltinFacet({ env: {}, watchDebounceMs: 10 }) },
      { id: chatId, facet: chatSessionFacet },
    ],
  });
  cleanups.push(() => session.close());
  const tui = await startTestTuiHost({
    facets: { [providersId]: providersBuiltinTuiFacet, [chatId]: chatTuiFacet },
    client: await session.connect(),
    columns: 100,
    rows: 30,
  });
  cleanups.push(() => tui.stop());
  return { session, tui };
}

async function sessionEntries(session: TestSessionHost): Promise<SessionEntry[]> {
  const lines = (await readFile(session.sessionFile, 'utf8')).trim().split('\n');
  return lines.slice(1).map((line) => JSON.parse(line) as SessionEntry);
}
const userTexts = (entries: readonly SessionEntry[]) =>
  entries.flatMap((entry) =>
    entry.kind === 'message' && entry.message.role === 'user' ? entry.message.content.map((part) => part.text) : [],
  );

describe.each(TRANSPORTS)('compaction over %s', (transport) => {
  it('a session driven past a small window compacts: later requests send the summary and the tail, the file keeps all', async () => {
    const server = await localServer();
    const { session, tui } = await start(transport, server);
    await tui.type('/model local/small\r');
    await shows(tui, 'local/small');

    for (const [index, prompt] of ['first', 'second', 'third', 'fourth'].entries()) {
      await tui.type(`${prompt}\r`);
      await shows(tui, `end of answer ${index}`);
      await hides(tui, 'esc to interrupt');
    }

    const completions = server.requests.filter(isCompletion);
    expect(completions.map(isSummary)).toEqual([false, false, false, true, false]);
    const summaryAsked = JSON.stringify(completions[3]?.body);
    // The summary request itself must fit the window: beyond 70 % of it the oldest messages are left out.
    expect(summaryAsked).toContain('[4 earlier messages left out]\\n\\n[User]: third');
    const afterCompaction = JSON.stringify(completions[4]?.body);
    expect(afterCompaction).toContain('SUMMARY of the early work');
    expect(afterCompaction).toContain('fourth');
    for (const old of ['first', 'second', 'third', 'answer 0', 'answer 2']) expect(afterCompaction).not.toContain(old);

    // The session file still holds every message, and the compaction entry says what it replaced.
    const entries = await sessionEntries(session);
    expect(userTexts(entries)).toEqual(['first', 'second', 'third', 'fourth']);
    const compaction = entries.find((entry) => entry.kind === 'compaction');
    const fourth = entries.find((entry) => entry.kind === 'message' && userTexts([entry])[0] === 'fourth');
    expect(compaction).toMatchObject({ trigger: 'auto', firstKeptEntryId: fourth?.id, model: 'local/small' });
    // And so does the transcript every client replicates: all four prompts, and the compaction marker after the
    // fourth (where the model's view of what came before became the summary).
    const transcript = projectTranscript(entries).entries;
    expect(transcript.filter((entry) => entry.kind === 'user').map((entry) => entry.id)).toHaveLength(4);
    expect(transcript.map((entry) => entry.kind).slice(-4)).toEqual(['user', 'compaction', 'assistant', 'run_settled']);
    expect(tui.host.failures()).toEqual([]);
  });

  it('/compact with instructions compacts now and says what it saved', async () => {
    const server = await localServer();
    const { session, tui } = await start(transport, server);
    await tui.type('/model local/small\r');
    await shows(tui, 'local/small');
    for (const [index, prompt] of ['first', 'second'].entries()) {
      await tui.type(`${prompt}\r`);
      await shows(tui, `end of answer ${index}`);
      await hides(tui, 'esc to interrupt');
    }
    await tui.type('/compact keep the file names\r');
    await shows(tui, 'Compacted: ~');
    expect(tui.screen()).toMatch(/Compacted: ~[\d,]+ → ~\d+ tokens \(\d+ messages summarized/);
    await shows(tui, '── compacted by /compact');
    const summaryRequest = server.requests.filter(isCompletion).find(isSummary);
    expect(messagesOf(summaryRequest ?? ({} as RecordedRequest))[1]?.content).toContain(
      'Instructions from the user for this summary: keep the file names',
    );
    expect((await sessionEntries(session)).filter((entry) => entry.kind === 'compaction')).toMatchObject([
      { trigger: 'manual', instructions: 'keep the file names' },
    ]);

    await tui.type('third\r');
    await shows(tui, 'end of answer 2');
    const last = JSON.stringify(server.requests.filter(isCompletion).at(-1)?.body);
    expect(last).toContain('SUMMARY of the early work');
    expect(last).not.toContain('first');
  });

  it('/compact on a session with nothing to compact says so and writes nothing', async () => {
    const server = await localServer();
    const { session, tui } = await start(transport, server);
    await tui.type('/model local/small\r');
    await shows(tui, 'local/small');
    await tui.type('/compact\r');
    await shows(tui, 'Not compacted: the conversation is short enough already');
    expect(await sessionEntries(session)).toEqual([]);
  });
});
