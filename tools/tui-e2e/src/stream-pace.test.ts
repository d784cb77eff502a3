import { afterEach, describe, expect, it } from 'vitest';
import type { ModelProvider } from '@pi/agent';
import type { TestTuiHost } from '@pi/host-tui/testing';
import { TRANSPORTS } from '@pi/test-support';
import { heldAnswer, startChatTui } from './chat-with-model';
import { hides, shows } from './session-and-tui';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function chatTui(transport: (typeof TRANSPORTS)[number], provider: ModelProvider): Promise<TestTuiHost> {
  const { tui, close } = await startChatTui(transport, provider);
  cleanups.push(close);
  return tui;
}

describe.each(TRANSPORTS)('the chat TUI paces its frames as a stream over %s', (transport) => {
  it('while an answer streams, and at the usual pace again once it is complete', async () => {
    const held = heldAnswer();
    const tui = await chatTui(transport, held.provider);
    expect(tui.host.streaming).toBe(false);
    await tui.type('hello\r');
    await shows(tui, 'first words');
    expect(tui.host.streaming).toBe(true);
    held.finish();
    await shows(tui, 'and the last words');
    await hides(tui, 'esc to interrupt');
    expect(tui.host.streaming).toBe(false);
  });

  it('until the answer is interrupted', async () => {
    const held = heldAnswer();
    const tui = await chatTui(transport, held.provider);
    await tui.type('hello\r');
    await shows(tui, 'first words');
    await tui.type('\x1b');
    await shows(tui, 'interrupted');
    expect(tui.host.streaming).toBe(false);
  });

  it('until the TUI stops', async () => {
    const held = heldAnswer();
    const tui = await chatTui(transport, held.provider);
    await tui.type('hello\r');
    await shows(tui, 'first words');
    await tui.stop();
    expect(tui.host.streaming).toBe(false);
    held.finish();
  });
});
