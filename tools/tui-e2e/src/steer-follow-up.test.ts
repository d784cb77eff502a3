import { afterEach, describe, expect, it } from 'vitest';
import { chatSessionFacet } from '@pi/chat-session';
import { chatTuiFacet } from '@pi/chat-tui';
import { modelProviderFacet, startTestSessionHost } from '@pi/host-session/testing';
import { startTestTuiHost, type TestTuiHost } from '@pi/host-tui/testing';
import { createOfflineProvider } from '@pi/model-providers';
import { TRANSPORTS } from '@pi/test-support';
import { hides, shows } from './session-and-tui';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function chatTui(transport: (typeof TRANSPORTS)[number]): Promise<TestTuiHost> {
  const session = await startTestSessionHost({
    transport,
    facets: [
      { id: '@pi/providers-builtin', facet: modelProviderFacet(pacedOfflineProvider()) },
      { id: '@pi/chat', facet: chatSessionFacet },
    ],
  });
  cleanups.push(() => session.close());
  const client = await session.connect();
  const tui = await startTestTuiHost({ facets: { '@pi/chat': chatTuiFacet }, client, columns: 100, rows: 30 });
  cleanups.push(() => tui.stop());
  return tui;
}

/** The pause before each event of the paced model. */
const PACE_MS = 4;

/**
 * The offline model with a pause before each event, so a long answer streams for seconds however fast the machine:
 * the tests type while it streams, and an unpaced stream long enough for a slow machine cost a fast one its CPU.
 */
function pacedOfflineProvider(): ReturnType<typeof createOfflineProvider> {
  const offline = createOfflineProvider();
  return {
    ...offline,
    async *stream(request, context) {
      for await (const event of offline.stream(request, context)) {
        await new Promise((resolve) => setTimeout(resolve, PACE_MS));
        yield event;
      }
    },
  };
}

/** A prompt the paced model echoes back one word per delta: over a second and a half of streaming to type during. */
const LONG = Array.from({ length: 400 }, (_, index) => `w${index}`).join(' ');
const ALT_ENTER = '\x1b\r';
const ALT_UP = '\x1b[1;3A';

describe.each(TRANSPORTS)('steer and follow-up in the chat TUI over %s', (transport) => {
  it('Enter while the agent works steers it: queued above the editor, then answered in the same run', async () => {
    const tui = await chatTui(transport);
    await tui.type(`${LONG}\r`);
    await shows(tui, 'enter steers');
    await tui.type('use tabs\r');
    await shows(tui, 'steer     use tabs');
    await shows(tui, 'You said: use tabs');
    await hides(tui, 'esc to interrupt');
    expect(tui.screen()).toContain('› use tabs');
    expect(tui.screen()).not.toContain('steer     use tabs');
  });

  it('Alt+Enter queues follow-ups, listed above the editor, that run in order once the run settles', async () => {
    const tui = await chatTui(transport);
    await tui.type(`${LONG}\r`);
    await shows(tui, 'esc to interrupt');
    await tui.type(`first later${ALT_ENTER}`);
    await tui.type(`second later${ALT_ENTER}`);
    await shows(tui, 'follow-up first later');
    await shows(tui, 'follow-up second later');
    await shows(tui, 'alt+up edits the last queued message');
    await shows(tui, 'You said: second later');
    const screen = tui.screen();
    expect(screen.indexOf('You said: first later')).toBeLessThan(screen.indexOf('You said: second later'));
    expect(screen).not.toContain('follow-up first later');
  });

  it('Alt+Up takes the last queued message back into the editor, and Esc brings back the rest', async () => {
    const tui = await chatTui(transport);
    await tui.type(`${LONG}\r`);
    await shows(tui, 'esc to interrupt');
    await tui.type(`kept for later${ALT_ENTER}`);
    await tui.type(`changed my mind${ALT_ENTER}`);
    await shows(tui, 'follow-up changed my mind');
    await tui.type(ALT_UP);
    await hides(tui, 'follow-up changed my mind');
    // The queue's change reaches the screen before the withdraw call returns and the text lands in the editor.
    await shows(tui, 'changed my mind');
    expect(tui.screen()).toContain('follow-up kept for later');

    await tui.type('\x1b');
    await shows(tui, 'interrupted');
    await hides(tui, 'follow-up kept for later');
    // Both are in the editor now, and nothing started after the interrupt.
    expect(tui.screen()).toContain('kept for later');
    expect(tui.screen()).toContain('changed my mind');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(tui.screen()).not.toContain('You said: kept for later');
  });
});
