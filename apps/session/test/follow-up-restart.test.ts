import { afterEach, describe, expect, it } from 'vitest';
import { Chat, TranscriptReplica } from '@pi/chat';
import { connect, type PiClient } from '@pi/client';
import { BACKGROUND_CONTEXT } from '@pi/context';
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

let sandbox: SessionSandbox | undefined;
const processes: SessionProcess[] = [];
const clients: PiClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await Promise.all(processes.splice(0).map((process) => process.stop('SIGKILL')));
  await sandbox?.remove();
  sandbox = undefined;
});

async function attach(where: SessionSandbox, extra: readonly string[] = []) {
  const process = runPiSession(where, [...where.flags, ...extra]);
  processes.push(process);
  const line = await process.listening();
  const { socketPath, token } = await readConnectionFile(line.connectionFile);
  const client = (await connect({ socketPath, token, reconnect: false }))._unsafeUnwrap();
  clients.push(client);
  const chat = await client.use(Chat);
  const transcript = new TranscriptReplica(chat);
  await eventually(() => transcript.complete);
  return { process, line, chat, transcript };
}

/**
 * Long enough that the offline model is still streaming it back (one word per delta) when the process dies, and
 * short enough (~18k estimated tokens) to stay under the automatic compaction threshold of its 32k window: a longer
 * one would be summarized first, and the echo would answer the short summary at once.
 */
const LONG_PROMPT = Array.from({ length: 8_000 }, (_, index) => `word${index}`).join(' ');

describe('a follow-up queued in a pi-session killed with SIGKILL', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('is still queued after the restart, and runs once the session host has started', async () => {
    sandbox = await createSandbox();
    const first = await attach(sandbox);
    const streaming = await first.chat.prompt({ text: LONG_PROMPT }, BACKGROUND_CONTEXT);
    await new Promise<void>((resolve) => {
      const stop = first.chat.events.subscribe((event) => {
        if (event.type !== 'delta' || event.operationId !== streaming.operationId) return;
        stop();
        resolve();
      });
    });
    const queued = await first.chat.followUp({ text: 'after the crash', operationId: 'after-1' }, BACKGROUND_CONTEXT);
    expect(queued).toMatchObject({ accepted: true, queueItemId: expect.any(String) });
    // The acceptance means the queue entry is on disk (synced).
    expect(await first.process.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    const durable = await readSessionEntries(sandbox.dataDir, first.line.sessionId);
    expect(durable).toContainEqual(expect.objectContaining({ kind: 'queue_added', itemId: queued.queueItemId }));

    const second = await attach(sandbox, ['--session', first.line.sessionId]);
    const { transcript, chat } = second;
    await eventually(() =>
      transcript.entries.some((entry) => entry.kind === 'assistant' && entry.text === 'You said: after the crash'),
    );
    await eventually(() => transcript.running === null && chat.queue.value.items.length === 0);
    const runs = transcript.entries.filter((entry) => entry.kind === 'run_settled');
    expect(runs.map((entry) => (entry.kind === 'run_settled' ? [entry.outcome, entry.error] : []))).toEqual([
      ['failed', 'interrupted'],
      ['completed', null],
    ]);
    expect(transcript.entries.filter((entry) => entry.kind === 'user').map((entry) => entry.text)).toEqual([
      LONG_PROMPT,
      'after the crash',
    ]);
    // The client's id followed the item to its run, across the crash; a resend queues nothing.
    expect(await chat.operation({ operationId: 'after-1' }, BACKGROUND_CONTEXT)).toEqual({
      state: 'completed',
      error: null,
    });
    const resent = await chat.followUp({ text: 'after the crash', operationId: 'after-1' }, BACKGROUND_CONTEXT);
    expect(resent).toEqual({ ...queued, duplicate: true });
    expect(chat.queue.value.items).toEqual([]);
  });
});
