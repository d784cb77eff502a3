import { describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { eventually } from '@pi/test-support';
import {
  connectThrough,
  observeChat,
  serveChatHost,
  sessionDirectory,
  sessionFileEntries,
  startChatHost,
  type Transport,
} from './chat-host';
import { pacedProvider, words } from './paced-provider';
import type { TestSessionHost } from '@pi/host-session/testing';

async function runsStarted(host: TestSessionHost): Promise<number> {
  return (await sessionFileEntries(host)).filter((entry) => entry.kind === 'operation_started').length;
}

describe.each<Transport>(['loopback', 'websocket'])('chat operation ids over %s', (transport) => {
  it('the same operation id sent twice starts one run, while it runs and after it settled', async () => {
    const provider = pacedProvider(words(6), 2);
    const host = await startChatHost(transport, provider);
    const observer = await observeChat(host);
    const first = await observer.chat.prompt({ text: 'once', operationId: 'send-1' }, BACKGROUND_CONTEXT);
    await provider.paused;

    const running = await observer.chat.prompt({ text: 'once', operationId: 'send-1' }, BACKGROUND_CONTEXT);
    expect(first).toEqual({ accepted: true, operationId: expect.any(String), error: null });
    expect(running).toEqual({ accepted: true, operationId: first.operationId, error: null, duplicate: true });
    provider.resume();
    await eventually(() => observer.events.some((event) => event.type === 'settled'));

    const settled = await observer.chat.prompt({ text: 'once', operationId: 'send-1' }, BACKGROUND_CONTEXT);
    expect(settled).toEqual(running);
    expect(await runsStarted(host)).toBe(1);
    expect(observer.transcript.entries.filter((entry) => entry.kind === 'run_started')).toHaveLength(1);
  });

  it('a client whose connection dropped mid-send looks the operation up by its id after reconnecting', async () => {
    const provider = pacedProvider(words(6), 2);
    const host = await startChatHost(transport, provider);
    const served = await serveChatHost(host, transport);
    const client = await connectThrough(served);
    const observer = await observeChat(client);
    const { chat } = observer;

    // The answer may or may not arrive: the client drops before it looks.
    const sent = chat.prompt({ text: 'lost answer', operationId: 'lost-1' }, BACKGROUND_CONTEXT).catch(() => null);
    await provider.paused;
    await served.stop();
    await eventually(() => client.connection.value.status !== 'connected');
    await sent;
    await served.restore();
    await eventually(() => client.connection.value.status === 'connected');

    expect(await chat.operation({ operationId: 'lost-1' }, BACKGROUND_CONTEXT)).toEqual({
      state: 'running',
      error: null,
    });
    expect(await chat.operation({ operationId: 'never-sent' }, BACKGROUND_CONTEXT)).toEqual({
      state: 'unknown',
      error: null,
    });
    provider.resume();
    await eventually(() => observer.events.some((event) => event.type === 'settled'));
    expect(await chat.operation({ operationId: 'lost-1' }, BACKGROUND_CONTEXT)).toEqual({
      state: 'completed',
      error: null,
    });
    expect(await runsStarted(host)).toBe(1);
  });

  it('after a restart the operation id is still known: lookup reports the outcome and a resend starts nothing', async () => {
    const directory = await sessionDirectory();
    const before = await startChatHost(transport, pacedProvider(words(3)), { directory });
    const observer = await observeChat(before);
    const first = await observer.chat.prompt({ text: 'durable', operationId: 'kept-1' }, BACKGROUND_CONTEXT);
    await eventually(() => observer.events.some((event) => event.type === 'settled'));
    await before.close();

    const after = await startChatHost(transport, pacedProvider(words(3)), { directory });
    const { chat } = await observeChat(after);
    expect(await chat.operation({ operationId: 'kept-1' }, BACKGROUND_CONTEXT)).toEqual({
      state: 'completed',
      error: null,
    });
    // The run's own id is an answer too.
    expect(await chat.operation({ operationId: first.operationId ?? '' }, BACKGROUND_CONTEXT)).toEqual({
      state: 'completed',
      error: null,
    });
    const resent = await chat.prompt({ text: 'durable', operationId: 'kept-1' }, BACKGROUND_CONTEXT);
    expect(resent).toEqual({ accepted: true, operationId: first.operationId, error: null, duplicate: true });
    expect(await runsStarted(after)).toBe(1);
  });
});
