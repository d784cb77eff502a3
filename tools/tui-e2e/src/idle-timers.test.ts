import { afterEach, describe, expect, it, vi } from 'vitest';
import { TRANSPORTS } from '@pi/test-support';
import { heldAnswer, startChatTui } from './chat-with-model';
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
    const held = heldAnswer();
    const { tui, close } = await startChatTui(transport, held.provider);
    cleanups.push(close);
    expect(intervals.active()).toBe(0);
    await tui.type('hello\r');
    await shows(tui, 'first words');
    expect(intervals.active()).toBe(1);
    held.finish();
    await shows(tui, 'and the last words');
    await hides(tui, 'esc to interrupt');
    expect(intervals.active()).toBe(0);
  });
});
