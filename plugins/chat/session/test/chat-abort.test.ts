import { describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { remoteErrorOf, eventually } from '@pi/test-support';
import { observeChat, sessionFileEntries, startChatHost, type Transport } from './chat-host';
import { pacedProvider, words } from './paced-provider';

describe.each<Transport>(['loopback', 'websocket'])('chat runs over %s', (transport) => {
  it('requestAbort mid-stream settles the run as aborted, durably, keeping the partial answer', async () => {
    const answer = words(20);
    const provider = pacedProvider(answer, 5);
    const host = await startChatHost(transport, provider);
    const observer = await observeChat(host);
    const { operationId } = await observer.chat.prompt({ text: 'go on and on' }, BACKGROUND_CONTEXT);
    if (operationId === null) throw new Error('the prompt was not accepted');
    await provider.paused;

    await observer.chat.requestAbort(operationId, BACKGROUND_CONTEXT);
    await eventually(() => observer.events.some((event) => event.type === 'settled'));

    expect(observer.events.at(-1)).toEqual({ type: 'settled', operationId, outcome: 'aborted', error: null });
    const partial = answer.slice(0, 5).join('');
    expect(observer.events.find((event) => event.type === 'final')).toMatchObject({
      entry: { text: partial, stopReason: 'aborted' },
    });
    const transcript = observer.transcript;
    expect(transcript.running).toBeNull();
    expect(transcript.complete).toBe(true);
    expect(transcript.entries.map((entry) => entry.kind)).toEqual([
      'run_started',
      'user',
      'abort_requested',
      'assistant',
      'run_settled',
    ]);
    expect(transcript.entries.at(-1)).toMatchObject({ kind: 'run_settled', operationId, outcome: 'aborted' });
    expect(observer.chat.streaming.value).toBeNull();

    const durable = await sessionFileEntries(host);
    expect(durable.map((entry) => entry.kind)).toEqual([
      'operation_started',
      'message',
      'cancel_requested',
      'message',
      'operation_settled',
    ]);
    expect(durable.at(-1)).toMatchObject({ operationId, outcome: 'aborted' });
    // The transcript is the durable record, entry for entry.
    expect(transcript.entries.map((entry) => entry.id)).toEqual(durable.map((entry) => entry.id));
  });

  it('a repeated abort of a settled run is harmless; an unknown operation is refused with a stable code', async () => {
    const host = await startChatHost(transport, pacedProvider(words(3)));
    const observer = await observeChat(host);
    const { operationId } = await observer.chat.prompt({ text: 'short' }, BACKGROUND_CONTEXT);
    if (operationId === null) throw new Error('the prompt was not accepted');
    await eventually(() => observer.events.some((event) => event.type === 'settled'));

    await expect(observer.chat.requestAbort(operationId, BACKGROUND_CONTEXT)).resolves.toBeUndefined();
    const refused = await remoteErrorOf(observer.chat.requestAbort('no-such-operation', BACKGROUND_CONTEXT));
    expect(refused.code).toBe('unknown_operation');
    expect((await sessionFileEntries(host)).some((entry) => entry.kind === 'cancel_requested')).toBe(false);
  });

  it('a prompt while a run is in progress is rejected as busy, naming the run in the way', async () => {
    const provider = pacedProvider(words(10), 2);
    const host = await startChatHost(transport, provider);
    const observer = await observeChat(host);
    const first = await observer.chat.prompt({ text: 'first' }, BACKGROUND_CONTEXT);
    await provider.paused;

    const second = await observer.chat.prompt({ text: 'second' }, BACKGROUND_CONTEXT);
    expect(second).toEqual({
      accepted: false,
      operationId: first.operationId,
      error: { code: 'busy', message: expect.any(String) },
    });
    provider.resume();
    await eventually(() => observer.events.some((event) => event.type === 'settled'));
    expect(observer.transcript.entries.filter((entry) => entry.kind === 'user')).toHaveLength(1);
  });

  it('a blank prompt is rejected as invalid_message and records nothing', async () => {
    const host = await startChatHost(transport, pacedProvider(words(3)));
    const observer = await observeChat(host);
    const response = await observer.chat.prompt({ text: '   ' }, BACKGROUND_CONTEXT);
    expect(response).toEqual({
      accepted: false,
      operationId: null,
      error: { code: 'invalid_message', message: expect.any(String) },
    });
    expect(await sessionFileEntries(host)).toEqual([]);
  });

  it('without a selected model the prompt is rejected as no_model', async () => {
    const host = await startChatHost(transport, null);
    const observer = await observeChat(host);
    const response = await observer.chat.prompt({ text: 'hello' }, BACKGROUND_CONTEXT);
    expect(response).toEqual({
      accepted: false,
      operationId: null,
      error: { code: 'no_model', message: expect.any(String) },
    });
  });

  it('a client connecting after the run converges to the whole transcript and no open segment', async () => {
    const answer = words(5);
    const host = await startChatHost(transport, pacedProvider(answer));
    const first = await observeChat(host);
    await first.chat.prompt({ text: 'hello' }, BACKGROUND_CONTEXT);
    await eventually(() => first.events.some((event) => event.type === 'settled'));

    const late = await observeChat(host);
    await eventually(() => late.transcript.complete);
    expect(late.transcript.entries).toEqual(first.transcript.entries);
    expect(late.transcript.entries.find((entry) => entry.kind === 'assistant')).toMatchObject({
      text: answer.join(''),
    });
    expect(late.chat.streaming.value).toBeNull();
    expect(late.view()).toBeNull();
  });

  it('rejects a prompt that is not the contract’s JSON before it reaches the session', async () => {
    const host = await startChatHost(transport, pacedProvider(words(3)));
    const observer = await observeChat(host);
    const refused = await remoteErrorOf(observer.chat.prompt({ message: 'hi' } as never, BACKGROUND_CONTEXT));
    expect(refused.code).toBe('invalid_argument');
    expect(await sessionFileEntries(host)).toEqual([]);
  });
});
