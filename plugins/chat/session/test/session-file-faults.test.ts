import { describe, expect, it } from 'vitest';
import { createScriptedProvider, FaultyDisk, type ScriptStep } from '@pi/agent/testing';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { eventually, remoteErrorOf } from '@pi/test-support';
import { observeChat, sessionFileEntries, startChatHost, type Transport } from './chat-host';
import { pacedProvider, words } from './paced-provider';

const answer = (text: string): ScriptStep[] => [
  { type: 'text_delta', delta: text },
  { type: 'done', stopReason: 'stop' },
];

describe.each<Transport>(['loopback', 'websocket'])('a session file that cannot be written, over %s', (transport) => {
  it('refuses the prompt with its stable code, shows the fault to every client and logs it, and recovers by itself', async () => {
    const disk = new FaultyDisk();
    const log: string[] = [];
    const provider = createScriptedProvider({ turns: [answer('done')] });
    const host = await startChatHost(transport, provider, {
      harness: { appendHandle: disk.wrap },
      log: (line) => log.push(line),
    });
    const sender = await observeChat(host);
    const watcher = await observeChat(host);
    expect(watcher.chat.storage.value).toEqual({ fault: null });

    disk.fail({ code: 'ENOSPC', tornBytes: 30 });
    const message = `Cannot write the session file ${host.sessionFile}: no space left on device (ENOSPC)`;
    const refused = await sender.chat.prompt({ text: 'hello', operationId: 'send-1' }, BACKGROUND_CONTEXT);
    expect(refused).toEqual({
      accepted: false,
      operationId: null,
      error: { code: 'session_file_unwritable', message },
    });
    const fault = { code: 'session_file_unwritable', message, cause: 'ENOSPC' };
    await eventually(() => watcher.chat.storage.value.fault !== null);
    expect(watcher.chat.storage.value).toEqual({ fault });
    expect(sender.chat.storage.value).toEqual({ fault });
    expect(log).toEqual([`${message}; what must be recorded is refused until a write succeeds`]);
    expect(await sessionFileEntries(host).catch((error: unknown) => error)).toBeInstanceOf(Error);

    disk.recover();
    const accepted = await sender.chat.prompt({ text: 'hello', operationId: 'send-1' }, BACKGROUND_CONTEXT);
    expect(accepted).toMatchObject({ accepted: true, error: null });
    await eventually(() => watcher.chat.storage.value.fault === null);
    expect(log.at(-1)).toBe(`the session file ${host.sessionFile} can be written again`);
    // The torn bytes were cut before the prompt was written: the file reads whole.
    await eventually(() => watcher.transcript.entries.some((entry) => entry.kind === 'run_settled'));
    expect((await sessionFileEntries(host)).map((entry) => entry.kind)).toEqual([
      'operation_started',
      'message',
      'message',
      'operation_settled',
    ]);
  });

  it('fails an abort and a withdrawal with session_file_unwritable, not an internal error', async () => {
    const disk = new FaultyDisk();
    const provider = pacedProvider(words(4), 1);
    const host = await startChatHost(transport, provider, { harness: { appendHandle: disk.wrap } });
    const { chat } = await observeChat(host);
    const started = await chat.prompt({ text: 'go' }, BACKGROUND_CONTEXT);
    await provider.paused;
    const queued = await chat.followUp({ text: 'later' }, BACKGROUND_CONTEXT);
    if (started.operationId === null || queued.queueItemId === null)
      throw new Error('expected a run and a queued item');

    disk.fail({ code: 'EROFS' });
    const withdrawal = await remoteErrorOf(chat.withdraw(queued.queueItemId, BACKGROUND_CONTEXT));
    expect(withdrawal.code).toBe('session_file_unwritable');
    expect(withdrawal.message).toContain('read-only file system (EROFS)');
    // Its withdrawal was not recorded, so it still waits, for every client.
    expect(chat.queue.value.items.map((item) => item.id)).toEqual([queued.queueItemId]);
    const abort = await remoteErrorOf(chat.requestAbort(started.operationId, BACKGROUND_CONTEXT));
    expect(abort.code).toBe('session_file_unwritable');
    expect(abort.message).toBe(`Cannot write the session file ${host.sessionFile}: read-only file system (EROFS)`);
  });
});

describe.each<Transport>(['loopback', 'websocket'])('a silent model, over %s', (transport) => {
  it('shows in the waiting state of every client while it is silent, and no longer once it speaks', async () => {
    const provider = pacedProvider(words(3), 0);
    const host = await startChatHost(transport, provider, { harness: { modelWaitNoticeMs: 20 } });
    const { chat } = await observeChat(host);
    const started = await chat.prompt({ text: 'think hard' }, BACKGROUND_CONTEXT);
    await eventually(() => chat.waiting.value !== null);
    expect(chat.waiting.value).toEqual({ operationId: started.operationId, silentMs: expect.any(Number) });
    expect(chat.waiting.value?.silentMs).toBeGreaterThanOrEqual(20);

    provider.resume();
    await eventually(() => chat.waiting.value === null);
  });
});
