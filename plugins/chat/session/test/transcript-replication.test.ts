import { describe, expect, it } from 'vitest';
import { MAX_HISTORY_LIMIT, TRANSCRIPT_CHECKPOINT_EVERY, TRANSCRIPT_WINDOW, type TranscriptEntry } from '@pi/chat';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { eventually, remoteErrorOf } from '@pi/test-support';
import {
  connectThrough,
  observeChat,
  serveChatHost,
  sessionTranscript,
  startChatHost,
  type ChatObserver,
  type Transport,
} from './chat-host';
import { pacedProvider, words } from './paced-provider';

const settledRuns = (observer: ChatObserver) => observer.events.filter((event) => event.type === 'settled').length;

/** Prompts through `observer` and waits for the run to settle: four durable entries (started, user, answer, settled). */
async function promptToEnd(observer: ChatObserver, text: string): Promise<void> {
  const before = settledRuns(observer);
  const response = await observer.chat.prompt({ text }, BACKGROUND_CONTEXT);
  expect(response.accepted).toBe(true);
  await eventually(() => settledRuns(observer) > before);
}

async function loadAll(observer: ChatObserver): Promise<void> {
  while (observer.transcript.firstIndex > 0) await observer.transcript.loadOlder(MAX_HISTORY_LIMIT);
}

/** The held entries are exactly the session branch's from `firstIndex` on: same entries, same order, same ids. */
function expectBranchSuffix(observer: ChatObserver, branch: readonly TranscriptEntry[]): void {
  expect(observer.transcript.synced).toBe(true);
  expect(observer.transcript.total).toBe(branch.length);
  expect(observer.transcript.entries).toEqual(branch.slice(observer.transcript.firstIndex));
}

const bytes = (frames: readonly string[]) => frames.reduce((sum, frame) => sum + Buffer.byteLength(frame), 0);

describe.each<Transport>(['loopback', 'websocket'])('transcript replication over %s', (transport) => {
  it('appending an entry sends a connected client the same few hundred bytes at 10 entries as at 5,000', async () => {
    const measure = async (seeded: number) => {
      const host = await startChatHost(transport, pacedProvider(words(3)), { seeded });
      const served = await serveChatHost(host, transport);
      const observer = await observeChat(await connectThrough(served));
      const mark = served.frames.received.length;
      await promptToEnd(observer, 'hello');
      const run = served.frames.received.slice(mark);
      // One append is its `appended` event and the head change after it; a run appends four entries.
      const appends = run.filter(
        (frame) => frame.includes('"type":"appended"') || frame.includes('"cell":"transcript"'),
      );
      expect(appends).toHaveLength(2 * 4);
      expect(observer.transcript.total).toBe(seeded + 4);
      return { perAppend: bytes(appends) / 4, run: bytes(run), largest: Math.max(...run.map((f) => f.length)) };
    };
    const small = await measure(10);
    const large = await measure(5000);
    // Only the counters grow: index and total gain two digits each (514 and 518 bytes when this was written).
    expect(large.perAppend - small.perAppend).toBeLessThanOrEqual(4);
    expect(large.run - small.run).toBeLessThanOrEqual(4 * 4 + 8);
    expect(large.perAppend).toBeLessThan(1024);
    expect(large.largest).toBeLessThan(2048);
  });

  it.each([
    ['mid-way between two checkpoints', 120, false],
    ['right after a checkpoint', 3 * TRANSCRIPT_CHECKPOINT_EVERY - 8, true],
  ])('a late joiner %s converges to exactly the session branch', async (_, seeded, atCheckpoint) => {
    const host = await startChatHost(transport, pacedProvider(words(3)), { seeded });
    const first = await observeChat(host);
    await promptToEnd(first, 'one');
    await promptToEnd(first, 'two');

    const late = await observeChat(host);
    const recent = late.chat.recent.value;
    // Right after a checkpoint the window reaches the newest entry; between two it is behind, and history fills in.
    expect(recent.firstIndex + recent.entries.length === seeded + 8).toBe(atCheckpoint);
    expect(late.transcript.synced).toBe(atCheckpoint);
    await eventually(() => late.transcript.synced);
    const branch = await sessionTranscript(host);
    expectBranchSuffix(late, branch);
    expect(late.transcript.firstIndex).toBe(seeded + 8 - (atCheckpoint ? TRANSCRIPT_WINDOW : TRANSCRIPT_WINDOW + 8));
    await loadAll(late);
    expect(late.transcript.complete).toBe(true);
    expect(late.transcript.entries.map((entry) => entry.id)).toEqual(branch.map((entry) => entry.id));
    expect(late.transcript.entries).toEqual(branch);
  });

  it('a late joiner during a streaming run converges, and keeps converging as the run ends', async () => {
    const answer = words(70);
    const provider = pacedProvider(answer, 40);
    const host = await startChatHost(transport, provider, { seeded: 120 });
    const first = await observeChat(host);
    const { operationId } = await first.chat.prompt({ text: 'stream to me' }, BACKGROUND_CONTEXT);
    await provider.paused;

    const late = await observeChat(host);
    await eventually(() => late.transcript.synced);
    expectBranchSuffix(late, await sessionTranscript(host));
    expect(late.transcript.running).toBe(operationId);
    expect(late.transcript.entries.at(-1)).toMatchObject({ kind: 'user', text: 'stream to me' });

    provider.resume();
    await eventually(() => settledRuns(late) === 1);
    expectBranchSuffix(late, await sessionTranscript(host));
    expect(late.transcript.entries.slice(-2)).toMatchObject([
      { kind: 'assistant', text: answer.join('') },
      { kind: 'run_settled', operationId },
    ]);
    expect(late.transcript.running).toBeNull();
    expect(late.transcript.entries).toEqual(first.transcript.entries.slice(-late.transcript.entries.length));
  });

  it('a client that hydrated from a stale recent window gets the missing entries through history', async () => {
    const host = await startChatHost(transport, pacedProvider(words(3)), { seeded: 130 });
    const first = await observeChat(host);
    await promptToEnd(first, 'one');
    await promptToEnd(first, 'two');
    const served = await serveChatHost(host, transport);

    const late = await observeChat(await connectThrough(served));
    expect(late.chat.recent.value.firstIndex + late.chat.recent.value.entries.length).toBe(130);
    expect(late.chat.transcript.value.total).toBe(138);
    expect(late.transcript.entries).toHaveLength(TRANSCRIPT_WINDOW);
    await eventually(() => late.transcript.synced);

    expectBranchSuffix(late, await sessionTranscript(host));
    // A compact call (`[id,"chat.history",args,callId]`), as pi's client sends a service call to a host of today.
    const historyCalls = served.frames.sent.filter((frame) => frame.includes(',"chat.history",'));
    expect(historyCalls).toHaveLength(1);
    expect(historyCalls[0]).toContain('{"before":138,"limit":8}');
  });

  it('a client that missed appends while disconnected converges after it reconnects', async () => {
    const host = await startChatHost(transport, pacedProvider(words(3)), { seeded: 120 });
    const served = await serveChatHost(host, transport);
    const client = await connectThrough(served);
    const observer = await observeChat(client);
    const writer = await observeChat(host);

    await served.stop();
    await eventually(() => client.connection.value.status !== 'connected');
    // Fifteen runs: sixty entries, past the checkpoint at 150, none of which the disconnected client hears.
    for (let run = 0; run < 15; run += 1) await promptToEnd(writer, `missed ${run}`);
    expect(observer.transcript.total).toBe(120);

    await served.restore();
    await eventually(() => observer.transcript.synced && observer.transcript.total === 180);
    expectBranchSuffix(observer, await sessionTranscript(host));

    await promptToEnd(writer, 'heard again');
    await eventually(() => observer.transcript.total === 184 && observer.transcript.synced);
    const branch = await sessionTranscript(host);
    expectBranchSuffix(observer, branch);
    await loadAll(observer);
    expect(observer.transcript.entries).toEqual(branch);
  });

  it('history pages backwards to the first entry, refuses an over-large limit, and loadOlder reaches complete', async () => {
    const host = await startChatHost(transport, null, { seeded: 450 });
    const observer = await observeChat(host);
    const branch = await sessionTranscript(host);

    const paged: TranscriptEntry[] = [];
    for (let before = observer.chat.transcript.value.total; before > 0;) {
      const page = await observer.chat.history({ before, limit: MAX_HISTORY_LIMIT }, BACKGROUND_CONTEXT);
      expect(page.branch).toBe(observer.chat.transcript.value.branch);
      expect(page.firstIndex + page.entries.length).toBe(before);
      paged.unshift(...page.entries);
      before = page.firstIndex;
    }
    expect(paged).toEqual(branch);
    expect((await observer.chat.history({ before: 0, limit: 10 }, BACKGROUND_CONTEXT)).entries).toEqual([]);

    const refused = await remoteErrorOf(
      observer.chat.history({ before: 450, limit: MAX_HISTORY_LIMIT + 1 }, BACKGROUND_CONTEXT),
    );
    expect(refused.code).toBe('invalid_argument');

    expect(observer.transcript.firstIndex).toBe(450 - TRANSCRIPT_WINDOW);
    expect(observer.transcript.complete).toBe(false);
    await loadAll(observer);
    expect(observer.transcript.complete).toBe(true);
    expect(observer.transcript.entries).toEqual(branch);
  });
});
