import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, it } from 'vitest';
import { startTestSessionHost } from '@pi/host-session/testing';
import { startTestTuiHost } from '@pi/host-tui/testing';
import { BACKGROUND_CONTEXT, type CodingAgentTuiPluginContext } from '@pi/plugin-api';
import { EDITOR_SETTING, SettingsCatalog } from '@pi/settings';
import { pluginId as settingsId, settingsSessionFacet } from '@pi/settings-session';
import { settingsTuiFacet } from '@pi/settings-tui';
import { TRANSPORTS, type TransportKind } from '@pi/test-support';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * A TUI plugin with an editor of its own: it shouts what is typed ("SHOUT> HI") and sends it on Enter. `breakOn`
 * makes it throw when that character is typed, as a broken contributed editor would.
 */
function shoutingEditor(sent: string[], breakOn?: string, removers: Array<() => void> = []) {
  return (context: CodingAgentTuiPluginContext) => {
    let text = '';
    const remove = context.slots.add('editor', {
      render: () => [`SHOUT> ${text.toUpperCase()}`],
      handleKey: (key) => {
        if (breakOn !== undefined && key.text === breakOn) throw new Error('the shouting editor broke');
        if (key.name === 'return' || key.name === 'enter') {
          sent.push(text);
          text = '';
          return true;
        }
        if (key.text === undefined) return false;
        text += key.text;
        return true;
      },
    });
    removers.push(remove);
  };
}

/** A session with the settings plugin in its own directory, and a TUI with the settings and shouting plugins. */
async function open(transport: TransportKind, breakOn?: string) {
  const removers: Array<() => void> = [];
  const directory = await mkdtemp(join(tmpdir(), 'pi-editor-slot-'));
  const session = await startTestSessionHost({
    transport,
    directory,
    facets: [{ id: settingsId, facet: settingsSessionFacet }],
  });
  const sent: string[] = [];
  const client = await session.connect();
  const tui = await startTestTuiHost({
    facets: { [settingsId]: settingsTuiFacet, '@t/shout': shoutingEditor(sent, breakOn, removers) },
    client,
  });
  cleanups.push(async () => {
    await tui.stop();
    await session.close();
    await rm(directory, { recursive: true, force: true });
  });
  const choose = async (owner: string) =>
    (await client.use(SettingsCatalog)).set(EDITOR_SETTING, owner, 'session', BACKGROUND_CONTEXT);
  return { tui, sent, choose, removers };
}

describe.each(TRANSPORTS)('the exclusive editor slot over %s', (transport) => {
  it("uses pi's editor until the editor setting names a plugin's, which then gets the keys", async () => {
    const { tui, sent, choose } = await open(transport);
    await tui.type('hi');
    await tui.waitForScreen((screen) => screen.includes('hi') && !screen.includes('SHOUT>'));
    await tui.type('\x15');

    await choose('@t/shout');
    await tui.waitForScreen((screen) => screen.includes('SHOUT>'));
    await tui.type('loud');
    await tui.waitForScreen((screen) => screen.includes('SHOUT> LOUD'));
    await tui.type('\r');
    await tui.waitForScreen((screen) => screen.includes('SHOUT> ') && !screen.includes('LOUD'));
    if (sent.join() !== 'loud') throw new Error(`the editor sent ${JSON.stringify(sent)}`);

    await choose('');
    await tui.waitForScreen((screen) => !screen.includes('SHOUT>'));
  });

  it("falls back to pi's editor when the chosen one throws, and /diagnostics names it", async () => {
    const { tui, choose } = await open(transport, '!');
    await choose('@t/shout');
    await tui.waitForScreen((screen) => screen.includes('SHOUT>'));
    await tui.type('ok!');
    await tui.waitForScreen((screen) => !screen.includes('SHOUT>') && screen.includes('⚠ 1 problem in plugins'));
    await tui.type('typed');
    await tui.waitForScreen((screen) => screen.includes('typed'));
    await tui.type('\x15/diagnostics\r');
    await tui.waitForScreen((screen) =>
      screen.includes('this TUI: @t/shout: editor failed: the shouting editor broke'),
    );
  });

  it("keeps pi's editor when the setting names a plugin that contributes none, and says so", async () => {
    const { tui, choose } = await open(transport);
    await choose('@t/nobody');
    await tui.type('still here');
    await tui.waitForScreen((screen) => screen.includes('still here') && screen.includes('⚠ 1 problem in plugins'));
    await tui.type('\x15/diagnostics\r');
    await tui.waitForScreen((screen) => screen.includes('the editor setting names "@t/nobody"'));
  });

  it("gives the keys back to pi's editor when the chosen editor is removed", async () => {
    const { tui, choose, removers } = await open(transport);
    await choose('@t/shout');
    await tui.waitForScreen((screen) => screen.includes('SHOUT>'));
    for (const remove of removers) remove();
    await tui.type('plain');
    await tui.waitForScreen((screen) => screen.includes('plain') && !screen.includes('SHOUT>'));
  });
});
