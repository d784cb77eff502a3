import { describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { CHECKPOINT_EVERY, chatEventSchema, type ChatEvent, type TranscriptHead } from '@pi/chat';
import { eventually } from '@pi/test-support';
import { observeChat, startChatHost, type Transport } from './chat-host';
import { burstProvider, burstsOfWords, pacedProvider, words } from './paced-provider';

type Delta = Extract<ChatEvent, { type: 'delta' }>;
const deltasOf = (events: ChatEvent[]) => events.filter((event): event is Delta => event.type === 'delta');
const finalOf = (events: ChatEvent[]) => events.find((event) => event.type === 'final');
const settledOf = (events: ChatEvent[]) => events.find((event) => event.type === 'settled');

describe.each<Transport>(['loopback', 'websocket'])('chat streaming over %s', (transport) => {
  it('streams deltas as events, then the final message replaces them and the transcript shows the run', async () => {
    const answer = words(70);
    const host = await startChatHost(transport, pacedProvider(answer));
    const observer = await observeChat(host);
    const heads: TranscriptHead[] = [];
    observer.chat.transcript.subscribe((value) => heads.push(value));

    const response = await observer.chat.prompt({ text: 'hello' }, BACKGROUND_CONTEXT);
    expect(response).toEqual({ accepted: true, operationId: expect.any(String), error: null });
    await eventually(() => settledOf(observer.events) !== undefined);

    const deltas = deltasOf(observer.events);
    expect(deltas.map((delta) => delta.text)).toEqual(answer);
    expect(
      deltas.every((delta, index) => delta.offset === answer.slice(0, index).join('').length && delta.segment === 0),
    ).toBe(true);
    expect(finalOf(observer.events)).toMatchObject({
      operationId: response.operationId,
      segment: 0,
      entry: { kind: 'assistant', text: answer.join('') },
    });
    expect(settledOf(observer.events)).toEqual({
      type: 'settled',
      operationId: response.operationId,
      outcome: 'completed',
      error: null,
    });
    // Events in order: the run's first two entries, every delta, then the final and its entry, then the settlement.
    expect(observer.events.map((event) => event.type)).toEqual([
      'appended',
      'appended',
      ...answer.map(() => 'delta'),
      'final',
      'appended',
      'appended',
      'settled',
    ]);

    const transcript = observer.transcript;
    expect(transcript.running).toBeNull();
    expect(transcript.entries.map((entry) => entry.kind)).toEqual(['run_started', 'user', 'assistant', 'run_settled']);
    expect(transcript.entries[2]).toMatchObject({
      text: answer.join(''),
      stopReason: 'stop',
      operationId: response.operationId,
    });
    // The head moved once per durable entry (plus the hydration), never per token.
    expect(heads.map((head) => head.total)).toEqual([0, 1, 2, 3, 4]);
    expect(observer.view()).toBeNull();
    expect(observer.chat.streaming.value).toBeNull();
  });

  it('checkpoints the open segment at its first delta and every CHECKPOINT_EVERY deltas, then clears it', async () => {
    const host = await startChatHost(transport, pacedProvider(words(70)));
    const observer = await observeChat(host);
    const checkpoints: Array<number | null> = [];
    observer.chat.streaming.subscribe((value) =>
      checkpoints.push(value === null ? null : value.text.split(' ').length - 1),
    );
    await observer.chat.prompt({ text: 'hello' }, BACKGROUND_CONTEXT);
    await eventually(() => settledOf(observer.events) !== undefined);
    expect(checkpoints).toEqual([null, 1, 1 + CHECKPOINT_EVERY, 1 + 2 * CHECKPOINT_EVERY, null]);
  });

  it('a client joining at a checkpoint continues from it with the later deltas and ends with the same text', async () => {
    const answer = words(70);
    const provider = pacedProvider(answer, 1 + CHECKPOINT_EVERY);
    const host = await startChatHost(transport, provider);
    const first = await observeChat(host);
    const { operationId } = await first.chat.prompt({ text: 'hello' }, BACKGROUND_CONTEXT);
    await provider.paused;
    await eventually(() => deltasOf(first.events).length === 1 + CHECKPOINT_EVERY);

    const late = await observeChat(host);
    const joinedAt = answer.slice(0, 1 + CHECKPOINT_EVERY).join('');
    expect(late.chat.streaming.value).toEqual({ operationId, segment: 0, text: joinedAt, offset: joinedAt.length });
    expect(late.chat.transcript.value.running).toBe(operationId);
    expect(late.transcript.running).toBe(operationId);
    provider.resume();
    await eventually(() => settledOf(late.events) !== undefined);

    expect(deltasOf(late.events)[0]?.offset).toBe(joinedAt.length);
    expect(late.views.some((view) => view?.waitingForFinal === true)).toBe(false);
    const lastStreamed = late.views.filter((view) => view !== null).at(-1);
    expect(lastStreamed?.text).toBe(answer.join(''));
    expect(finalOf(late.events)).toEqual(finalOf(first.events));
    await eventually(() => late.transcript.complete);
    expect(late.transcript.entries).toEqual(first.transcript.entries);
  });

  it('a client joining between checkpoints detects the gap, waits, and resumes from the next checkpoint', async () => {
    const answer = words(70);
    const provider = pacedProvider(answer, 40);
    const host = await startChatHost(transport, provider);
    const first = await observeChat(host);
    await first.chat.prompt({ text: 'hello' }, BACKGROUND_CONTEXT);
    await provider.paused;
    await eventually(() => deltasOf(first.events).length === 40);

    const late = await observeChat(host);
    expect(late.view()?.text).toBe(answer.slice(0, 1 + CHECKPOINT_EVERY).join(''));
    provider.resume();
    await eventually(() => settledOf(late.events) !== undefined);

    // Deltas 34–40 were sent before it joined: the first one it sees is beyond its checkpoint.
    const waiting = late.views.findIndex((view) => view?.waitingForFinal === true);
    expect(waiting).toBeGreaterThan(0);
    const resumed = late.views.findIndex((view, index) => index > waiting && view !== null && !view.waitingForFinal);
    expect(late.views[resumed]?.text).toBe(answer.slice(0, 1 + 2 * CHECKPOINT_EVERY).join(''));
    expect(late.views.filter((view) => view !== null).at(-1)?.text).toBe(answer.join(''));
    await eventually(() => late.transcript.complete);
    expect(late.transcript.entries).toEqual(first.transcript.entries);
  });

  it('deltas that arrive in one tick reach every client as one delta, in order, with nothing lost', async () => {
    const bursts = burstsOfWords(40, [1, 3, 7, 2]);
    const answer = bursts.flat().join('');
    const host = await startChatHost(transport, burstProvider(bursts));
    const observer = await observeChat(host);
    const response = await observer.chat.prompt({ text: 'hello' }, BACKGROUND_CONTEXT);
    await eventually(() => settledOf(observer.events) !== undefined);

    const deltas = deltasOf(observer.events);
    // One delta per tick of the provider: each merged delta is a delta as any client reads it.
    expect(deltas.map((delta) => delta.text)).toEqual(bursts.map((burst) => burst.join('')));
    expect(deltas.every((delta) => chatEventSchema.safeParse(delta).success)).toBe(true);
    expect(deltas.map((delta) => delta.offset)).toEqual(
      bursts.map((_, index) => bursts.slice(0, index).flat().join('').length),
    );
    expect(observer.events.map((event) => event.type)).toEqual([
      'appended',
      'appended',
      ...bursts.map(() => 'delta'),
      'final',
      'appended',
      'appended',
      'settled',
    ]);
    expect(observer.views.filter((view) => view !== null).at(-1)?.text).toBe(answer);
    expect(observer.views.some((view) => view?.waitingForFinal === true)).toBe(false);
    expect(finalOf(observer.events)).toMatchObject({ operationId: response.operationId, entry: { text: answer } });
  });

  it('checkpoints count the deltas clients are sent: the first and every CHECKPOINT_EVERY after it', async () => {
    const bursts = burstsOfWords(70, [3]);
    const host = await startChatHost(transport, burstProvider(bursts));
    const observer = await observeChat(host);
    const checkpoints: Array<number | null> = [];
    observer.chat.streaming.subscribe((value) =>
      checkpoints.push(value === null ? null : value.text.split(' ').length - 1),
    );
    await observer.chat.prompt({ text: 'hello' }, BACKGROUND_CONTEXT);
    await eventually(() => settledOf(observer.events) !== undefined);
    expect(checkpoints).toEqual([null, 3, 3 * (1 + CHECKPOINT_EVERY), 3 * (1 + 2 * CHECKPOINT_EVERY), null]);
  });

  it('a client joining while deltas are merged converges: its checkpoint, then the later merged deltas, then the final', async () => {
    const bursts = burstsOfWords(70, [2, 5]);
    const answer = bursts.flat().join('');
    const provider = burstProvider(bursts, 1 + CHECKPOINT_EVERY);
    const host = await startChatHost(transport, provider);
    const first = await observeChat(host);
    const { operationId } = await first.chat.prompt({ text: 'hello' }, BACKGROUND_CONTEXT);
    await provider.paused;
    await eventually(() => deltasOf(first.events).length === 1 + CHECKPOINT_EVERY);

    const late = await observeChat(host);
    const joinedAt = bursts
      .slice(0, 1 + CHECKPOINT_EVERY)
      .flat()
      .join('');
    expect(late.chat.streaming.value).toEqual({ operationId, segment: 0, text: joinedAt, offset: joinedAt.length });
    provider.resume();
    await eventually(() => settledOf(late.events) !== undefined);

    expect(deltasOf(late.events).map((delta) => delta.text)).toEqual(
      bursts.slice(1 + CHECKPOINT_EVERY).map((burst) => burst.join('')),
    );
    expect(deltasOf(late.events)[0]?.offset).toBe(joinedAt.length);
    expect(late.views.some((view) => view?.waitingForFinal === true)).toBe(false);
    expect(late.views.filter((view) => view !== null).at(-1)?.text).toBe(answer);
    expect(finalOf(late.events)).toEqual(finalOf(first.events));
    await eventually(() => late.transcript.complete);
    expect(late.transcript.entries).toEqual(first.transcript.entries);
  });

  it('a client joining between checkpoints of merged deltas waits for the gap to close and ends with the whole text', async () => {
    const bursts = burstsOfWords(70, [4, 1]);
    const answer = bursts.flat().join('');
    const provider = burstProvider(bursts, 40);
    const host = await startChatHost(transport, provider);
    const first = await observeChat(host);
    await first.chat.prompt({ text: 'hello' }, BACKGROUND_CONTEXT);
    await provider.paused;
    await eventually(() => deltasOf(first.events).length === 40);

    const late = await observeChat(host);
    expect(late.view()?.text).toBe(
      bursts
        .slice(0, 1 + CHECKPOINT_EVERY)
        .flat()
        .join(''),
    );
    provider.resume();
    await eventually(() => settledOf(late.events) !== undefined);

    const waiting = late.views.findIndex((view) => view?.waitingForFinal === true);
    expect(waiting).toBeGreaterThan(0);
    const resumed = late.views.findIndex((view, index) => index > waiting && view !== null && !view.waitingForFinal);
    expect(late.views[resumed]?.text).toBe(
      bursts
        .slice(0, 1 + 2 * CHECKPOINT_EVERY)
        .flat()
        .join(''),
    );
    expect(late.views.filter((view) => view !== null).at(-1)?.text).toBe(answer);
    await eventually(() => late.transcript.complete);
    expect(late.transcript.entries).toEqual(first.transcript.entries);
  });
});
