import { afterEach, describe, it } from 'vitest';
import { chatSessionFacet } from '@pi/chat-session';
import { modelProviderFacet, startTestSessionHost } from '@pi/host-session/testing';
import { startTestTuiHost, type TestTuiHost } from '@pi/host-tui/testing';
import { createOfflineProvider } from '@pi/model-providers';
import { TRANSPORTS } from '@pi/test-support';
import { chatTuiFacet } from '@pi/chat-tui';
import { hides, shows } from './session-and-tui';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function chatTui(transport: (typeof TRANSPORTS)[number], columns = 80, rows = 24): Promise<TestTuiHost> {
  const session = await startTestSessionHost({
    transport,
    facets: [
      { id: '@pi/providers-builtin', facet: modelProviderFacet(createOfflineProvider()) },
      { id: '@pi/chat', facet: chatSessionFacet },
    ],
  });
  cleanups.push(() => session.close());
  const client = await session.connect();
  const tui = await startTestTuiHost({ facets: { '@pi/chat': chatTuiFacet }, client, columns, rows });
  cleanups.push(() => tui.stop());
  return tui;
}

describe.each(TRANSPORTS)('the chat TUI over %s', (transport) => {
  it('sends the typed prompt and shows it, the streamed answer, and then the settled transcript', async () => {
    const tui = await chatTui(transport);
    await tui.type('hello there\r');
    await shows(tui, '› hello there');
    await shows(tui, 'You said: hello there');
    await hides(tui, 'esc to interrupt');
  });

  it('Esc interrupts a long run and the transcript says so', async () => {
    const tui = await chatTui(transport);
    // Long enough to stream for a while, short enough not to be compacted first: at 20,000 words the session
    // compacted the prompt, and the echo of its short summary was over before Esc came.
    const long = Array.from({ length: 8_000 }, (_, index) => `w${index}`).join(' ');
    await tui.type(`${long}\r`);
    await shows(tui, 'esc to interrupt');
    await tui.type('\x1b');
    await shows(tui, 'interrupted');
  });

  it('a prompt the session refuses stays in the editor with the reason', async () => {
    // No model selected: the session refuses with no_model. (A prompt while a run is busy steers it instead:
    // steer-follow-up.test.ts.)
    const session = await startTestSessionHost({ transport, facets: [{ id: '@pi/chat', facet: chatSessionFacet }] });
    cleanups.push(() => session.close());
    const tui = await startTestTuiHost({ facets: { '@pi/chat': chatTuiFacet }, client: await session.connect() });
    cleanups.push(() => tui.stop());
    await tui.type('refused prompt\r');
    await shows(tui, 'refused prompt');
    await shows(tui, 'No model');
  });
});
