import { afterEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { eventually } from '@pi/test-support';
import { PROCESS_TEST_TIMEOUT_MS, createSandbox, readSessionEntries, type SessionSandbox } from './pi-session-process';
import { LONG_PROMPT, chatSessions } from './chat-sessions';

let sandbox: SessionSandbox | undefined;
const { attach } = chatSessions();
afterEach(async () => {
  await sandbox?.remove();
  sandbox = undefined;
});

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
