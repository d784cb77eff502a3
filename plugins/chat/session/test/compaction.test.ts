import { describe, expect, it } from 'vitest';
import { ProviderError } from '@pi/agent';
import { windowedProvider, textAnswer } from '@pi/agent/testing';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { eventually, remoteErrorOf } from '@pi/test-support';
import { observeChat, sessionFileEntries, startChatHost, type Transport } from './chat-host';
import { pacedProvider, words } from './paced-provider';

describe.each<Transport>(['loopback', 'websocket'])('compaction over %s', (transport) => {
  it('compact summarizes the older part: every client’s transcript keeps it all and shows the compaction', async () => {
    const provider = windowedProvider({ answer: (_request, index) => textAnswer(`answer ${index}`) });
    const host = await startChatHost(transport, provider);
    const observer = await observeChat(host);
    for (const text of ['one', 'two']) {
      const { operationId } = await observer.chat.prompt({ text }, BACKGROUND_CONTEXT);
      await eventually(() =>
        observer.events.some((event) => event.type === 'settled' && event.operationId === operationId),
      );
    }
    const result = await observer.chat.compact({ instructions: 'keep the names' }, BACKGROUND_CONTEXT);
    expect(result).toMatchObject({ summarizedMessages: 2, keptMessages: 2 });
    expect(result.tokensAfter).toBeLessThanOrEqual(result.tokensBefore + 20);
    expect(provider.summaries[0]?.instructions).toBe('keep the names');

    await eventually(() => observer.transcript.entries.at(-1)?.kind === 'compaction');
    expect(observer.transcript.entries.at(-1)).toEqual({
      kind: 'compaction',
      id: result.entryId,
      operationId: null,
      trigger: 'manual',
      summary: 'summary of 2 messages',
      instructions: 'keep the names',
      tokensBefore: result.tokensBefore,
      tokensAfter: result.tokensAfter,
    });
    const users = observer.transcript.entries.filter((entry) => entry.kind === 'user');
    expect(users.map((entry) => (entry.kind === 'user' ? entry.text : ''))).toEqual(['one', 'two']);
    // A late client sees the same.
    const late = await observeChat(host);
    await eventually(() => late.transcript.complete);
    expect(late.transcript.entries).toEqual(observer.transcript.entries);
    expect((await sessionFileEntries(host)).at(-1)).toMatchObject({ id: result.entryId, kind: 'compaction' });
  });

  it('compact is refused while a run is in progress', async () => {
    const provider = pacedProvider(words(10), 2);
    const host = await startChatHost(transport, provider);
    const observer = await observeChat(host);
    const { operationId } = await observer.chat.prompt({ text: 'go' }, BACKGROUND_CONTEXT);
    await provider.paused;
    const busy = await remoteErrorOf(observer.chat.compact({}, BACKGROUND_CONTEXT));
    expect(busy.code).toBe('busy');
    provider.resume();
    await eventually(() =>
      observer.events.some((event) => event.type === 'settled' && event.operationId === operationId),
    );
    expect((await sessionFileEntries(host)).some((entry) => entry.kind === 'compaction')).toBe(false);
  });

  it('a failing provider summary is compaction_failed with its message', async () => {
    const provider = windowedProvider({
      summarize: async () => {
        throw new ProviderError('http_status', 'Local answered HTTP 503');
      },
    });
    const host = await startChatHost(transport, provider);
    const observer = await observeChat(host);
    const { operationId } = await observer.chat.prompt({ text: 'one' }, BACKGROUND_CONTEXT);
    await eventually(() =>
      observer.events.some((event) => event.type === 'settled' && event.operationId === operationId),
    );
    const failed = await remoteErrorOf(observer.chat.compact({}, BACKGROUND_CONTEXT));
    expect(failed).toMatchObject({
      code: 'compaction_failed',
      message: 'The summary could not be written: Local answered HTTP 503',
    });
    expect(observer.transcript.entries.some((entry) => entry.kind === 'compaction')).toBe(false);
  });
});
