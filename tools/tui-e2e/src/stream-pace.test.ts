import { afterEach, describe, expect, it } from 'vitest';
import { createDeferred, createScriptedProvider } from '@pi/agent/testing';
import type { ModelProvider } from '@pi/agent';
import { chatSessionFacet } from '@pi/chat-session';
import { chatTuiFacet } from '@pi/chat-tui';
import { modelProviderFacet, startTestSessionHost } from '@pi/host-session/testing';
import { startTestTuiHost, type TestTuiHost } from '@pi/host-tui/testing';
import { TRANSPORTS } from '@pi/test-support';
import { hides, shows } from './session-and-tui';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A model that streams its first words, then waits for the test to let it finish (or for the run's abort). */
function heldProvider() {
  const finish = createDeferred<void>();
  const provider = createScriptedProvider({
    turns: [
      [
        { type: 'text_delta', delta: 'first words ' },
        { type: 'wait', until: finish.promise },
        { type: 'text_delta', delta: 'and the last words' },
        { type: 'done', stopReason: 'stop' },
      ],
    ],
  });
  return { provider, finish: () => finish.resolve() };
}

async function chatTui(transport: (typeof TRANSPORTS)[number], provider: ModelProvider): Promise<TestTuiHost> {
  const session = await startTestSessionHost({
    transport,
    facets: [
      { id: '@pi/providers-builtin', facet: modelProviderFacet(provider) },
      { id: '@pi/chat', facet: chatSessionFacet },
    ],
  });
  cleanups.push(() => session.close());
  const tui = await startTestTuiHost({ facets: { '@pi/chat': chatTuiFacet }, client: await session.connect() });
  cleanups.push(() => tui.stop());
  return tui;
}

describe.each(TRANSPORTS)('the chat TUI paces its frames as a stream over %s', (transport) => {
  it('while an answer streams, and at the usual pace again once it is complete', async () => {
    const held = heldProvider();
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
    const held = heldProvider();
    const tui = await chatTui(transport, held.provider);
    await tui.type('hello\r');
    await shows(tui, 'first words');
    await tui.type('\x1b');
    await shows(tui, 'interrupted');
    expect(tui.host.streaming).toBe(false);
  });

  it('until the TUI stops', async () => {
    const held = heldProvider();
    const tui = await chatTui(transport, held.provider);
    await tui.type('hello\r');
    await shows(tui, 'first words');
    await tui.stop();
    expect(tui.host.streaming).toBe(false);
    held.finish();
  });
});
