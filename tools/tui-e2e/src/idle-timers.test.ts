import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDeferred, createScriptedProvider } from '@pi/agent/testing';
import { chatSessionFacet } from '@pi/chat-session';
import { chatTuiFacet } from '@pi/chat-tui';
import { modelProviderFacet, startTestSessionHost } from '@pi/host-session/testing';
import { startTestTuiHost } from '@pi/host-tui/testing';
import { TRANSPORTS } from '@pi/test-support';
import { hides, shows } from './session-and-tui';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  vi.restoreAllMocks();
});

/** The repeating timers armed in this process and not yet cleared, from the moment it is called. */
function watchIntervals(): { readonly active: () => number } {
  const active = new Set<unknown>();
  const set = globalThis.setInterval;
  const clear = globalThis.clearInterval;
  vi.spyOn(globalThis, 'setInterval').mockImplementation(((...args: Parameters<typeof setInterval>) => {
    const timer = set(...args);
    active.add(timer);
    return timer;
  }) as typeof setInterval);
  vi.spyOn(globalThis, 'clearInterval').mockImplementation((timer) => {
    active.delete(timer);
    clear(timer);
  });
  return { active: () => active.size };
}

describe.each(TRANSPORTS)('an idle chat TUI over %s', (transport) => {
  it('keeps no repeating timer: the spinner runs only while a run is in progress', async () => {
    const intervals = watchIntervals();
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
    expect(intervals.active()).toBe(0);
    await tui.type('hello\r');
    await shows(tui, 'first words');
    expect(intervals.active()).toBe(1);
    finish.resolve();
    await shows(tui, 'and the last words');
    await hides(tui, 'esc to interrupt');
    expect(intervals.active()).toBe(0);
  });
});
