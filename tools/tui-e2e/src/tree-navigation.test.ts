import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chatSessionFacet } from '@pi/chat-session';
import { chatTuiFacet } from '@pi/chat-tui';
import { modelProviderFacet, startTestSessionHost, type TestSessionHost } from '@pi/host-session/testing';
import { startTestTuiHost, type TestTuiHost } from '@pi/host-tui/testing';
import { createOfflineProvider } from '@pi/model-providers';
import { TRANSPORTS } from '@pi/test-support';
import { hides, shows } from './session-and-tui';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function chatTui(transport: (typeof TRANSPORTS)[number]) {
  const session = await startTestSessionHost({
    transport,
    facets: [
      { id: '@pi/providers-builtin', facet: modelProviderFacet(createOfflineProvider()) },
      { id: '@pi/chat', facet: chatSessionFacet },
    ],
  });
  cleanups.push(() => session.close());
  const tui = await startTestTuiHost({
    facets: { '@pi/chat': chatTuiFacet },
    client: await session.connect(),
    columns: 100,
    rows: 30,
  });
  cleanups.push(() => tui.stop());
  return { session, tui };
}

/** Sends a prompt from the editor and waits until its answer is shown and the run has ended. */
async function exchange(tui: TestTuiHost, text: string): Promise<void> {
  await tui.type(`${text}\r`);
  await shows(tui, `You said: ${text}`);
  await hides(tui, 'esc to interrupt');
}

async function sessionLines(session: TestSessionHost, file = session.sessionFile) {
  return (await readFile(file, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe.each(TRANSPORTS)('the session tree in the TUI over %s', (transport) => {
  it('Escape twice with no run opens the tree; Escape once does not', async () => {
    const { tui } = await chatTui(transport);
    await exchange(tui, 'one');
    await tui.type('\x1b');
    expect(tui.screen()).not.toContain('Session tree');
    await tui.type('\x1b');
    await shows(tui, 'Session tree · 2 messages');
  });

  it('/tree goes back before a prompt, a new prompt branches, and choosing the old answer brings its branch back', async () => {
    const { session, tui } = await chatTui(transport);
    await exchange(tui, 'one');
    await exchange(tui, 'two');

    await tui.type('/tree\r');
    await shows(tui, 'Session tree · 4 messages');
    await tui.type('you: two\r');
    await shows(tui, 'it is in the editor to edit and send again');
    await hides(tui, 'You said: two');
    // The editor holds "two": the user edits it and sends it again, on a new branch.
    await tui.type(' again\r');
    await shows(tui, 'You said: two again');
    await hides(tui, 'esc to interrupt');
    expect(tui.screen()).toContain('You said: one');

    await tui.type('/tree\r');
    await shows(tui, 'Session tree · 6 messages · 2 branches');
    expect(tui.screen()).toContain('├─ you: two');
    expect(tui.screen()).toContain('└─ you: two again');
    await tui.type('ai: you said: two\r');
    await shows(tui, 'Moved to "ai: You said: two"');
    await hides(tui, 'You said: two again');
    expect(tui.screen()).toContain('You said: two');
    expect((await sessionLines(session)).at(-1)?.['kind']).toBe('leaf_moved');
  });

  it('/fork writes a new session from before a chosen prompt and shows its id and how to open it', async () => {
    const { session, tui } = await chatTui(transport);
    await exchange(tui, 'one');
    await exchange(tui, 'two');
    await tui.type('/fork\r');
    await shows(tui, 'Fork a new session');
    await tui.type('you: two\r');
    await shows(tui, 'pi-tui --session');
    const id = /Forked into session ([0-9a-f-]{36})/.exec(tui.screen())?.[1] ?? '';
    const fork = await sessionLines(session, join(dirname(session.sessionFile), `${id}.jsonl`));
    expect(fork[0]).toEqual(expect.objectContaining({ type: 'session', sessionId: id }));
    // Run one: started, the prompt, the answer, settled.
    expect(fork.slice(1).map((entry) => entry['kind'])).toEqual([
      'operation_started',
      'message',
      'message',
      'operation_settled',
    ]);
    // This session goes on where it was.
    expect(tui.screen()).toContain('You said: two');
  });
});
