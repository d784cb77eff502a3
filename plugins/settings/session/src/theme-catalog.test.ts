import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { startTestSessionHost, type TestSessionHost } from '@pi/host-session/testing';
import { SettingsCatalog, type SettingsCatalogState } from '@pi/settings';
import { TRANSPORTS, nextValue, remoteErrorOf } from '@pi/test-support';
import { sessionFacet } from './index';

const ocean = { base: 'light', styles: { accent: { fg: '#0077aa', bold: true }, border: { fg: 12 } } };

describe.each(TRANSPORTS)('user themes over %s', (transport) => {
  let directory: string;
  let session: TestSessionHost | undefined;
  const themeFile = async (name: string, content: unknown) => {
    await mkdir(join(directory, 'config', 'themes'), { recursive: true });
    await writeFile(
      join(directory, 'config', 'themes', name),
      typeof content === 'string' ? content : JSON.stringify(content),
    );
  };
  const open = async () => {
    session = await startTestSessionHost({
      transport,
      directory,
      facets: [{ id: '@pi/settings', facet: sessionFacet }],
    });
    return (await session.connect()).use(SettingsCatalog);
  };
  const themeEntry = (state: SettingsCatalogState) => state.settings.find((setting) => setting.key === 'theme');

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'pi-themes-'));
  });

  afterEach(async () => {
    await session?.close();
    session = undefined;
    await rm(directory, { recursive: true, force: true });
  });

  it('serves the theme files of the config dir and offers their names for the theme setting', async () => {
    await themeFile('ocean.json', ocean);
    const catalog = await open();
    expect(catalog.state.value.themes).toEqual([{ name: 'ocean', ...ocean }]);
    expect(themeEntry(catalog.state.value)?.schema).toMatchObject({ enum: ['dark', 'light', 'ocean'] });
    await catalog.set('theme', 'ocean', 'user', BACKGROUND_CONTEXT);
    const state = await nextValue(catalog.state, (value) => themeEntry(value)?.value === 'ocean');
    expect(themeEntry(state)?.layer).toBe('user');
  });

  it('reports a broken theme file by its name and still serves the good ones', async () => {
    await themeFile('ocean.json', ocean);
    await themeFile('broken.json', '{ "styles": ');
    await themeFile('neon.json', { styles: { accent: { fg: 'pink' } } });
    await themeFile('dark.json', ocean);
    const catalog = await open();
    expect(catalog.state.value.themes.map((theme) => theme.name)).toEqual(['ocean']);
    expect(catalog.state.value.themeWarnings).toEqual([
      { file: 'themes/broken.json', message: 'is not valid JSON' },
      { file: 'themes/dark.json', message: '"dark" is a built-in theme; give yours another name' },
      { file: 'themes/neon.json', message: expect.stringContaining('at styles.accent.fg') },
    ]);
    expect(JSON.stringify(catalog.state.value)).not.toContain(directory);
    const refused = await remoteErrorOf(catalog.set('theme', 'neon', 'user', BACKGROUND_CONTEXT));
    expect(refused.code).toBe('invalid_argument');
  });

  it('finds a theme file added later on reload, and a theme setting naming it then applies', async () => {
    const catalog = await open();
    await mkdir(join(directory, 'project', '.pi'), { recursive: true });
    await writeFile(join(directory, 'project', '.pi', 'settings.json'), JSON.stringify({ theme: 'ocean' }));
    await themeFile('ocean.json', ocean);
    await catalog.reload(BACKGROUND_CONTEXT);
    const state = await nextValue(catalog.state, (value) => themeEntry(value)?.value === 'ocean');
    expect(themeEntry(state)?.layer).toBe('project');
    expect(state.warnings).toEqual([]);
  });

  it("serves the themes of an installed package after the user's own, which keep a name both have", async () => {
    // What `pi install` leaves in the global scope: the prefix's package.json and the package in its node_modules.
    const packages = join(directory, 'config', 'packages');
    const folder = join(packages, 'node_modules', '@acme', 'pi-themes');
    await mkdir(join(folder, 'themes'), { recursive: true });
    await writeFile(join(packages, 'package.json'), JSON.stringify({ dependencies: { '@acme/pi-themes': '1.0.0' } }));
    await writeFile(
      join(folder, 'package.json'),
      JSON.stringify({ name: '@acme/pi-themes', pi: { themes: ['themes'] } }),
    );
    await writeFile(join(folder, 'themes', 'sunset.json'), JSON.stringify({ base: 'dark', styles: {} }));
    await writeFile(join(folder, 'themes', 'ocean.json'), JSON.stringify({ base: 'dark', styles: {} }));
    await themeFile('ocean.json', ocean);
    const catalog = await open();
    expect(catalog.state.value.themes).toEqual([
      { name: 'ocean', ...ocean },
      { name: 'sunset', base: 'dark', styles: {} },
    ]);
    expect(catalog.state.value.themeWarnings).toEqual([
      { file: 'packages/node_modules/@acme/pi-themes/themes/ocean.json', message: '"ocean" is already a theme' },
    ]);
    expect(themeEntry(catalog.state.value)?.schema).toMatchObject({ enum: ['dark', 'light', 'ocean', 'sunset'] });
  });

  it('reports a theme setting that names no theme, and uses the layer below', async () => {
    await mkdir(join(directory, 'config'), { recursive: true });
    await writeFile(join(directory, 'config', 'settings.json'), JSON.stringify({ theme: 'solarized' }));
    const catalog = await open();
    expect(themeEntry(catalog.state.value)).toMatchObject({ value: 'dark', layer: 'defaults' });
    expect(catalog.state.value.warnings).toEqual([
      { layer: 'user', key: 'theme', message: expect.stringContaining('the user settings.json: "theme" is ignored') },
    ]);
  });
});
