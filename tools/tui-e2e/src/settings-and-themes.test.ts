import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startTestSessionHost, type TestSessionHost } from '@pi/host-session/testing';
import { startTestTuiHost, type TestTuiHost } from '@pi/host-tui/testing';
import type { AnyAgentTool, CodingAgentSessionPluginContext } from '@pi/plugin-api';
import { SettingsCatalog } from '@pi/settings';
import { pluginId as settingsId, settingsSessionFacet } from '@pi/settings-session';
import { settingsTuiFacet } from '@pi/settings-tui';
import { TRANSPORTS, eventually, type TransportKind } from '@pi/test-support';
import { shows } from './session-and-tui';

/** A user theme whose border colour (palette 201) no built-in theme uses, so its escape code proves it is painted. */
const OCEAN = { base: 'light', styles: { border: { fg: 201 } } };
const OCEAN_BORDER = '\x1b[38;5;201m';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A session plugin whose one tool is named after its `demo.greeting` setting: behaviour a setting changes. */
function greetingPlugin(tools: { current?: () => string[] }) {
  return (context: CodingAgentSessionPluginContext) => {
    const greeting = context.settings.declare('demo.greeting', {
      schema: z.enum(['hello', 'ahoy']),
      default: 'hello',
      description: 'How the greeting tool greets',
    });
    context.tools.add((draft) => {
      const name = `greet_${greeting.value}`;
      draft.set(name, {
        name,
        description: 'Greets',
        parameters: z.object({}),
        execute: async () => ({ content: [{ type: 'text', text: greeting.value }] }),
      } as unknown as AnyAgentTool);
    });
    tools.current = () => [...context.tools.current().keys()];
  };
}

/** The settings and greeting plugins on a session in `directory`, and two TUIs attached to it. */
async function open(transport: TransportKind, directory: string) {
  const tools: { current?: () => string[] } = {};
  const session: TestSessionHost = await startTestSessionHost({
    transport,
    directory,
    facets: [
      { id: settingsId, facet: settingsSessionFacet },
      { id: '@test/greeting', facet: greetingPlugin(tools) },
    ],
  });
  const attach = async () =>
    startTestTuiHost({ facets: { [settingsId]: settingsTuiFacet }, client: await session.connect(), rows: 30 });
  const [first, second] = [await attach(), await attach()];
  cleanups.push(async () => {
    await first.stop();
    await second.stop();
    await session.close();
  });
  return { session, first, second, tools: () => tools.current?.() ?? [] };
}

const RIGHT = '\x1b[C';
const TAB = '\t';

/** Opens /settings in `tui` and selects the first setting matching `filter`. */
async function openPanelAt(tui: TestTuiHost, filter: string) {
  await tui.type('/settings\r');
  await shows(tui, 'changes go to');
  await tui.type(filter);
}

async function sandbox(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'pi-settings-tui-'));
  cleanups.push(() => rm(directory, { recursive: true, force: true }));
  return directory;
}

async function themeFile(directory: string, name: string, content: unknown) {
  await mkdir(join(directory, 'config', 'themes'), { recursive: true });
  await writeFile(
    join(directory, 'config', 'themes', name),
    typeof content === 'string' ? content : JSON.stringify(content),
  );
}

describe.each(TRANSPORTS)('/settings and themes over %s', (transport) => {
  it('lists every declared setting grouped by plugin with its value and layer', async () => {
    const directory = await sandbox();
    await mkdir(join(directory, 'config'), { recursive: true });
    await writeFile(join(directory, 'config', 'settings.json'), JSON.stringify({ demo: { greeting: 'ahoy' } }));
    const { first } = await open(transport, directory);
    await first.type('/settings\r');
    await shows(first, '  demo.greeting = ahoy  (user)');
    const screen = first.screen();
    expect(screen).toContain('  theme = dark  (defaults)');
    expect(screen.indexOf('@pi/settings')).toBeLessThan(screen.indexOf('  theme = dark'));
    expect(screen.indexOf('@test/greeting')).toBeLessThan(screen.indexOf('  demo.greeting = ahoy'));
  });

  it('a theme picked in one TUI repaints the other in it, without a restart', async () => {
    const directory = await sandbox();
    await themeFile(directory, 'ocean.json', OCEAN);
    const { session, first, second } = await open(transport, directory);
    await shows(second, '● connected');
    const before = second.terminal.written().length;
    expect(second.terminal.written()).not.toContain(OCEAN_BORDER);

    await openPanelAt(first, 'theme');
    await shows(first, '› theme = ‹ dark ›');
    await first.type(RIGHT);
    await shows(first, '› theme = ‹ light ›  (session)');
    await first.type(RIGHT);
    await shows(first, '› theme = ‹ ocean ›  (session)');
    await eventually(() => second.terminal.written().slice(before).includes(OCEAN_BORDER));
    await eventually(() => first.terminal.written().includes(OCEAN_BORDER));
    const catalog = await (await session.connect()).use(SettingsCatalog);
    expect(catalog.state.value.settings.find((entry) => entry.key === 'theme')).toMatchObject({
      value: 'ocean',
      layer: 'session',
    });
  });

  it('a setting changed in one TUI changes the session and what the other TUI shows, without a restart', async () => {
    const directory = await sandbox();
    const { first, second, tools } = await open(transport, directory);
    expect(tools()).toEqual(['greet_hello']);

    await openPanelAt(first, 'greeting');
    await first.type(TAB);
    await shows(first, 'changes go to session [user] project');
    await first.type(RIGHT);
    await eventually(() => tools().includes('greet_ahoy'));
    expect(tools()).toEqual(['greet_ahoy']);
    expect(JSON.parse(await readFile(join(directory, 'config', 'settings.json'), 'utf8'))).toEqual({
      demo: { greeting: 'ahoy' },
    });

    await second.type('/settings\r');
    await shows(second, '  demo.greeting = ahoy  (user)');
  });

  it('writes to the project file when the project layer is picked', async () => {
    const directory = await sandbox();
    const { tools, first } = await open(transport, directory);
    await openPanelAt(first, 'greeting');
    await first.type(TAB + TAB);
    await shows(first, 'changes go to session user [project]');
    await first.type(RIGHT);
    await eventually(() => tools().includes('greet_ahoy'));
    expect(JSON.parse(await readFile(join(directory, 'project', '.pi', 'settings.json'), 'utf8'))).toEqual({
      demo: { greeting: 'ahoy' },
    });
  });

  it('tells about a broken theme file and keeps painting in the theme in force', async () => {
    const directory = await sandbox();
    await themeFile(directory, 'broken.json', '{ "styles": ');
    const { first } = await open(transport, directory);
    await shows(first, 'themes/broken.json: is not valid JSON');
    expect(first.terminal.written()).not.toContain(OCEAN_BORDER);
  });
});
