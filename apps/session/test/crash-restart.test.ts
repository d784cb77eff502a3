import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatService, TranscriptEntry, TranscriptReplica } from '@pi/chat';
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

/**
 * Prompts and waits for the run's `settled` event — the lane is free again by then (the transcript's settled
 * entry arrives a moment earlier, while the run still holds the lane).
 */
async function promptToEnd(
  { chat, transcript }: { chat: ChatService; transcript: TranscriptReplica },
  text: string,
): Promise<{ operationId: string | null; entries: TranscriptEntry[] }> {
  const settledRuns = new Set<string>();
  let notify = (): void => undefined;
  const stop = chat.events.subscribe((event) => {
    if (event.type !== 'settled') return;
    settledRuns.add(event.operationId);
    notify();
  });
  try {
    const response = await chat.prompt({ text }, BACKGROUND_CONTEXT);
    expect(response.accepted).toBe(true);
    await new Promise<void>((resolve) => {
      notify = () => {
        if (settledRuns.has(response.operationId ?? '')) resolve();
      };
      notify();
    });
    await eventually(() => transcript.complete);
    return { operationId: response.operationId, entries: [...transcript.entries] };
  } finally {
    stop();
  }
}

describe('a pi-session killed with SIGKILL', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('comes back with --session holding the transcript up to the last durable entry', async () => {
    sandbox = await createSandbox();
    const first = await attach(sandbox);
    await promptToEnd(first, 'remember me');

    const streaming = await first.chat.prompt({ text: LONG_PROMPT }, BACKGROUND_CONTEXT);
    await new Promise<void>((resolve) => {
      const stop = first.chat.events.subscribe((event) => {
        if (event.type !== 'delta' || event.operationId !== streaming.operationId) return;
        stop();
        resolve();
      });
    });
    expect(await first.process.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    const durable = await readSessionEntries(sandbox.dataDir, first.line.sessionId);

    const second = await attach(sandbox, ['--session', first.line.sessionId]);

    expect(second.line.sessionId).toBe(first.line.sessionId);
    // stderr and stdout are separate pipes: the recovery line may arrive after the listening line.
    await eventually(() => second.process.stderr().includes('\n'));
    expect(
      second.process
        .stderr()
        .split('\n')
        .filter((line) => line !== ''),
    ).toEqual([
      expect.stringMatching(
        new RegExp(
          `^pi-session ${first.line.sessionId}: recovered the session file: .*operation ${streaming.operationId} was interrupted`,
        ),
      ),
    ]);
    const restored = second.transcript;
    // Every durable entry, in order, then what recovery wrote for the run the crash cut short.
    const durableIds = durable.filter((entry) => entry['kind'] !== 'custom').map((entry) => entry['id']);
    expect(restored.entries.slice(0, durableIds.length).map((entry) => entry.id)).toEqual(durableIds);
    expect(restored.entries.slice(0, 4).map((entry) => entry.kind)).toEqual([
      'run_started',
      'user',
      'assistant',
      'run_settled',
    ]);
    expect(restored.entries[2]).toMatchObject({ kind: 'assistant', text: 'You said: remember me' });
    expect(restored.entries).toContainEqual(
      expect.objectContaining({ kind: 'user', operationId: streaming.operationId, text: LONG_PROMPT }),
    );
    expect(restored.entries.at(-1)).toMatchObject({
      kind: 'run_settled',
      operationId: streaming.operationId,
      outcome: 'failed',
      error: 'interrupted',
    });
    expect(restored.running).toBeNull();

    // The recovered session takes prompts again.
    const after = await promptToEnd(second, 'still here?');
    expect(after.entries.at(-2)).toMatchObject({ kind: 'assistant', text: 'You said: still here?' });
  });

  it('between prompts, comes back with every settled run', async () => {
    sandbox = await createSandbox();
    const first = await attach(sandbox);
    const before = await promptToEnd(first, 'one and done');
    await first.process.stop('SIGKILL');

    const second = await attach(sandbox, ['--session', first.line.sessionId]);

    expect(second.transcript.entries).toEqual(before.entries);
    expect(second.transcript.running).toBeNull();
    expect(second.process.stderr()).toBe('');
  });

  it('says on stderr, in one line, that it cut back a torn last line of the session file', async () => {
    sandbox = await createSandbox();
    const first = await attach(sandbox);
    await promptToEnd(first, 'before the tear');
    await first.process.stop('SIGKILL');
    await appendFile(join(sandbox.dataDir, 'sessions', `${first.line.sessionId}.jsonl`), '{"id":"torn","par');

    const second = await attach(sandbox, ['--session', first.line.sessionId]);

    await eventually(() => second.process.stderr().includes('\n'));
    expect(
      second.process
        .stderr()
        .split('\n')
        .filter((line) => line !== ''),
    ).toEqual([
      expect.stringMatching(
        new RegExp(
          `^pi-session ${first.line.sessionId}: recovered the session file: dropped a torn final line of 17 bytes`,
        ),
      ),
    ]);
    expect(second.transcript.entries.at(-1)).toMatchObject({ kind: 'run_settled', outcome: 'completed' });
  });
});
