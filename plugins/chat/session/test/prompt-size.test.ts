import { describe, expect, it } from 'vitest';
import { windowedProvider } from '@pi/agent/testing';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { eventually } from '@pi/test-support';
import { sessionFileEntries, observeChat, startChatHost, type Transport } from './chat-host';
import { pacedProvider, words } from './paced-provider';

/** Far more than a window of 1,000 tokens holds (four characters a token). */
const HUGE = 'word '.repeat(2000);

describe.each<Transport>(['loopback', 'websocket'])('a prompt larger than the context window over %s', (transport) => {
  it('is refused with the estimate and the window, and nothing is recorded', async () => {
    const host = await startChatHost(transport, windowedProvider({ contextWindow: 1000 }));
    const { chat } = await observeChat(host);
    const response = await chat.prompt({ text: HUGE }, BACKGROUND_CONTEXT);
    expect(response).toEqual({
      accepted: false,
      operationId: null,
      error: {
        code: 'too_large',
        message: expect.stringMatching(
          /^The prompt is ~2,\d{3} tokens; the context window of windowed\/small holds 1,000: /,
        ),
      },
    });
    for (const send of [chat.steer, chat.followUp]) {
      const queued = await send({ text: HUGE }, BACKGROUND_CONTEXT);
      expect(queued).toMatchObject({ accepted: false, error: { code: 'too_large' } });
    }
    expect(await sessionFileEntries(host)).toEqual([]);
    expect((await chat.prompt({ text: 'short' }, BACKGROUND_CONTEXT)).accepted).toBe(true);
  });

  it('a steer larger than the window is refused while a run is in progress, and the run goes on', async () => {
    const provider = pacedProvider(words(4), 1);
    const windowed = {
      ...provider,
      models: () => provider.models().map((model) => ({ ...model, contextWindow: 1000 })),
    };
    const host = await startChatHost(transport, windowed);
    const observer = await observeChat(host);
    const { operationId } = await observer.chat.prompt({ text: 'go' }, BACKGROUND_CONTEXT);
    if (operationId === null) throw new Error('the prompt was not accepted');
    await provider.paused;
    const steer = await observer.chat.steer({ text: HUGE }, BACKGROUND_CONTEXT);
    expect(steer).toMatchObject({ accepted: false, queueItemId: null, error: { code: 'too_large' } });
    expect(observer.chat.queue.value.items).toEqual([]);
    provider.resume();
    await eventually(() =>
      observer.events.some((event) => event.type === 'settled' && event.operationId === operationId),
    );
    expect(await observer.chat.operation({ operationId }, BACKGROUND_CONTEXT)).toEqual({
      state: 'completed',
      error: null,
    });
  });
});
