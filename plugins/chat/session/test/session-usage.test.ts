import { describe, expect, it } from 'vitest';
import { createScriptedProvider } from '@pi/agent/testing';
import type { ChatService } from '@pi/chat';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { eventually } from '@pi/test-support';
import { observeChat, sessionDirectory, startChatHost } from './chat-host';

const usage = { input: 1_000, output: 50, cacheRead: 200, cacheWrite: 300 };
const answer = (text: string) => [
  { type: 'text_delta' as const, delta: text },
  { type: 'usage' as const, usage },
  { type: 'done' as const, stopReason: 'stop' as const },
];

/** Prompts and waits for the run to settle. */
async function run(chat: ChatService, text: string): Promise<void> {
  const settled = new Promise<void>((resolve) =>
    chat.events.subscribe((event) => event.type === 'settled' && resolve()),
  );
  await chat.prompt({ text }, BACKGROUND_CONTEXT);
  await settled;
}

describe.each(['loopback', 'websocket'] as const)('the session usage and info over %s', (transport) => {
  it('totals every answer, keeps the latest request as the context, and /session counts the file', async () => {
    const provider = createScriptedProvider({ turns: [answer('one'), answer('two')] });
    const host = await startChatHost(transport, provider);
    const { chat } = await observeChat(host);
    expect(chat.usage.value).toMatchObject({ input: 0, contextTokens: null });
    await run(chat, 'first');
    await run(chat, 'second');

    const info = await chat.info(BACKGROUND_CONTEXT);
    // Every client holds the same totals: the cell is replicated.
    await eventually(() => chat.usage.value.input === 2_000);
    expect(chat.usage.value).toEqual(info.usage);
    expect(info.usage).toEqual({
      input: 2_000,
      output: 100,
      cacheRead: 400,
      cacheWrite: 600,
      cost: 0,
      contextTokens: 1_550,
    });
    expect(info).toMatchObject({
      sessionId: 'test',
      file: host.sessionFile,
      messages: { user: 2, assistant: 2, tool: 0 },
    });
    expect(info.entries).toBeGreaterThanOrEqual(4);
  });

  it('restores the totals from the session file when the session opens again', async () => {
    const directory = await sessionDirectory();
    const first = await startChatHost(transport, createScriptedProvider({ turns: [answer('one')] }), { directory });
    await run((await observeChat(first)).chat, 'first');
    await first.close();
    const again = await startChatHost(transport, null, { directory });
    expect((await (await observeChat(again)).chat.info(BACKGROUND_CONTEXT)).usage).toMatchObject({
      input: 1_000,
      contextTokens: 1_550,
    });
  });
});
