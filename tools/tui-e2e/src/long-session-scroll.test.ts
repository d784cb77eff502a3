import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chatSessionFacet } from '@pi/chat-session';
import { chatTuiFacet } from '@pi/chat-tui';
import { seedSessionFile, startTestSessionHost } from '@pi/host-session/testing';
import { startTestTuiHost } from '@pi/host-tui/testing';
import { TRANSPORTS } from '@pi/test-support';
import { shows } from './session-and-tui';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const PAGE_UP = '\x1b[5~';
/** The lowest "seeded message N" on the screen. */
const lowestShown = (screen: string) =>
  Math.min(...[...screen.matchAll(/seeded message (\d+)/g)].map((match) => Number(match[1])));

describe.each(TRANSPORTS)('a long session opened from its file, over %s', (transport) => {
  it('scrolls up past the recent window to its first entry, older pages fetched as the top is reached', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'pi-long-session-'));
    cleanups.push(() => rm(directory, { recursive: true, force: true }));
    // Past the recent window (100) and more than one older page (100 each).
    await seedSessionFile(directory, 350);
    const session = await startTestSessionHost({
      transport,
      directory,
      facets: [{ id: '@pi/chat', facet: chatSessionFacet }],
    });
    cleanups.push(() => session.close());
    const tui = await startTestTuiHost({
      facets: { '@pi/chat': chatTuiFacet },
      client: await session.connect(),
      rows: 60,
    });
    cleanups.push(() => tui.stop());
    await shows(tui, 'seeded message 349');

    // Each page up shows older entries or, at the top of what the TUI holds, asks for the page before it.
    let lowest = lowestShown(tui.screen());
    for (let presses = 0; lowest > 0 && presses < 200; presses += 1) {
      await tui.type(PAGE_UP);
      lowest = Math.min(lowest, lowestShown(tui.screen()));
    }
    expect(lowest).toBe(0);
    const screen = tui.screen();
    expect(screen.indexOf('seeded message 0\n') >= 0 || /seeded message 0\s/.test(screen)).toBe(true);
    expect(screen.indexOf('seeded message 0')).toBeLessThan(screen.indexOf('seeded message 1'));
  });
});
