import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, it } from 'vitest';
import { startTestSessionHost } from '@pi/host-session/testing';
import { startTestTuiHost } from '@pi/host-tui/testing';
import { createProvidersBuiltinFacet, pluginId as providersId } from '@pi/providers-builtin-session';
import { providersBuiltinTuiFacet } from '@pi/providers-builtin-tui';
import { pluginId as settingsId, settingsSessionFacet } from '@pi/settings-session';
import { TRANSPORTS, eventually, type TransportKind } from '@pi/test-support';
import { shows } from './session-and-tui';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A session on `directory` with the settings and providers plugins, and a TUI on it. */
async function open(transport: TransportKind, directory: string) {
  const session = await startTestSessionHost({
    transport,
    directory,
    facets: [
      { id: settingsId, facet: settingsSessionFacet },
      { id: providersId, facet: createProvidersBuiltinFacet({ env: {}, watchDebounceMs: 10 }) },
    ],
  });
  const tui = await startTestTuiHost({
    facets: { [providersId]: providersBuiltinTuiFacet },
    client: await session.connect(),
  });
  const close = async () => {
    await tui.stop();
    await session.close();
  };
  cleanups.push(close);
  return { session, tui, close };
}

describe.each(TRANSPORTS)('the model a person picks over %s', (transport) => {
  it('is the one the next session starts with, and so is the thinking level', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'pi-model-memory-'));
    cleanups.push(() => rm(directory, { recursive: true, force: true }));
    const first = await open(transport, directory);
    await shows(first.tui, 'offline/echo · thinking off');
    await first.tui.type('/model offline/thinker\r');
    await shows(first.tui, 'offline/thinker · thinking high');
    await first.tui.type('/thinking\r');
    await shows(first.tui, 'offline/thinker · thinking off');
    await first.tui.type('/thinking\r');
    await shows(first.tui, 'offline/thinker · thinking low');
    // Kept once the command has finished, after the footer shows the choice.
    const kept = () => {
      try {
        const settings = JSON.parse(readFileSync(join(directory, 'config', 'settings.json'), 'utf8'));
        return settings.defaultModel?.modelId === 'thinker' && settings.defaultThinkingLevel === 'low';
      } catch {
        return false;
      }
    };
    await eventually(kept);
    await first.close();

    const second = await open(transport, directory);
    await shows(second.tui, 'offline/thinker · thinking low');
  });
});
