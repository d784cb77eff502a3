import { afterEach, describe, expect, it } from 'vitest';
import { createDeferred, createScriptedProvider, FaultyDisk } from '@pi/agent/testing';
import { chatSessionFacet } from '@pi/chat-session';
import { chatTuiFacet } from '@pi/chat-tui';
import { modelProviderFacet, startTestSessionHost, type TestSessionHostOptions } from '@pi/host-session/testing';
import { startTestTuiHost, type TestTuiHost } from '@pi/host-tui/testing';
import { createOfflineProvider } from '@pi/model-providers';
import type { ModelProvider } from '@pi/plugin-api';
import { TRANSPORTS } from '@pi/test-support';
import { hides, painted, shows } from './session-and-tui';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function chatTui(
  transport: (typeof TRANSPORTS)[number],
  provider: ModelProvider,
  harness: TestSessionHostOptions['harness'],
): Promise<{ tui: TestTuiHost; sessionFile: string }> {
  const session = await startTestSessionHost({
    transport,
    facets: [
      { id: '@pi/providers-builtin', facet: modelProviderFacet(provider) },
      { id: '@pi/chat', facet: chatSessionFacet },
    ],
    harness,
  });
  cleanups.push(() => session.close());
  // Wide enough for the fault line, which names the session file's whole path.
  const tui = await startTestTuiHost({
    facets: { '@pi/chat': chatTuiFacet },
    client: await session.connect(),
    columns: 220,
    rows: 24,
  });
  cleanups.push(() => tui.stop());
  return { tui, sessionFile: session.sessionFile };
}

describe.each(TRANSPORTS)('the chat TUI over %s', (transport) => {
  it('shows that the session file cannot be written, keeps the prompt in the editor, and clears once it can', async () => {
    const disk = new FaultyDisk();
    const { tui, sessionFile } = await chatTui(transport, createOfflineProvider(), { appendHandle: disk.wrap });
    disk.fail({ code: 'ENOSPC', tornBytes: 20 });
    await tui.type('hello there\r');
    await shows(tui, `✗ Cannot write the session file ${sessionFile}: no space left on device (ENOSPC)`);
    // The refused prompt came back into the editor, so nothing typed is lost.
    expect(tui.screen()).toContain('hello there');

    disk.recover();
    // Enter sends what the editor holds again.
    await tui.type('\r');
    await shows(tui, 'You said: hello there');
    // The status line goes; the refusal's own notice is the editor's, and stays until dismissed.
    await hides(tui, '✗ Cannot write the session file');
  });

  it('counts the seconds while the model is silent, and stops when it speaks', async () => {
    const speak = createDeferred<void>();
    const provider = createScriptedProvider({
      turns: [
        [
          { type: 'wait', until: speak.promise },
          { type: 'text_delta', delta: 'thought it through' },
          { type: 'done', stopReason: 'stop' },
        ],
      ],
    });
    const { tui } = await chatTui(transport, provider, { modelWaitNoticeMs: 20 });
    await tui.type('think hard\r');
    // However many seconds this machine took to paint it: the line counts them.
    await painted(tui, (screen) => /waiting for the model… \d+s · esc to interrupt/.test(screen));
    speak.resolve();
    await shows(tui, 'thought it through');
    await hides(tui, 'waiting for the model');
  });
});
