import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { PluginManifest } from '@pi/kernel';
import { PLUGIN_API_VERSION } from '@pi/plugin-api';
import { loadFacets } from './facet-loader';
import { createPluginSandbox, loadedMarkers, recordingModule, type PluginSandbox } from './testing';

const manifestOf = (...entries: Array<string | { id: string; config: unknown }>): PluginManifest => ({
  entries: entries.map((entry) => (typeof entry === 'string' ? { id: entry, config: null } : entry)) as never,
});
const lookupIn = (sandbox: PluginSandbox) => ({
  baseDirectory: sandbox.root,
  packageRoots: [sandbox.root],
  source: 'manifest /test/manifest.json',
});
const unique = (label: string) => `${label}-${randomUUID()}`;

describe('finding plugins', () => {
  it('loads each plugin by package name in manifest order, with its config, importing only this host’s facet', async () => {
    await using sandbox = await createPluginSandbox();
    const [sessionA, tuiA, sessionB] = [unique('a.session'), unique('a.tui'), unique('b.session')];
    await sandbox.install({
      name: '@acme/a',
      pi: { apiVersion: '2.0', facets: { session: './session.mjs', tui: './tui.mjs' } },
      files: { 'session.mjs': recordingModule(sessionA), 'tui.mjs': recordingModule(tuiA) },
    });
    await sandbox.install({
      name: 'b-plugin',
      pi: { id: '@acme/b', apiVersion: '2.0', facets: { session: './session.mjs' } },
      files: { 'session.mjs': recordingModule(sessionB) },
    });

    const loaded = await loadFacets(
      manifestOf('b-plugin', { id: '@acme/a', config: { level: 2 } }),
      'session',
      lookupIn(sandbox),
    );

    expect(loaded._unsafeUnwrap().map(({ id, config }) => ({ id, config }))).toEqual([
      { id: '@acme/b', config: null },
      { id: '@acme/a', config: { level: 2 } },
    ]);
    expect(loadedMarkers()).toEqual(expect.arrayContaining([sessionA, sessionB]));
    expect(loadedMarkers()).not.toContain(tuiA);
  });

  it('skips a plugin with no facet for this host without importing any of its modules', async () => {
    await using sandbox = await createPluginSandbox();
    const marker = unique('theme.tui');
    await sandbox.install({
      name: '@acme/theme',
      pi: { apiVersion: '2.0', facets: { tui: './tui.mjs' } },
      files: { 'tui.mjs': recordingModule(marker) },
    });
    const loaded = await loadFacets(manifestOf('@acme/theme'), 'session', lookupIn(sandbox));
    expect(loaded._unsafeUnwrap()).toEqual([]);
    expect(loadedMarkers()).not.toContain(marker);
  });

  it('loads a plugin named by a path relative to the manifest', async () => {
    await using sandbox = await createPluginSandbox();
    await sandbox.place('plugins/local', {
      name: 'local-plugin',
      pi: { apiVersion: '2.0', facets: { session: './src/session.mjs' } },
      files: { 'src/session.mjs': 'export default () => {};' },
    });
    const loaded = await loadFacets(manifestOf('./plugins/local'), 'session', lookupIn(sandbox));
    expect(loaded._unsafeUnwrap()[0]).toMatchObject({
      id: 'local-plugin',
      module: expect.stringContaining('session.mjs'),
    });
  });

  it('takes a host’s facet out of a definePlugin bundle', async () => {
    await using sandbox = await createPluginSandbox();
    await sandbox.install({
      name: 'bundle',
      pi: { apiVersion: '2.0', facets: { session: './index.mjs', tui: './index.mjs' } },
      files: { 'index.mjs': 'export default { id: "bundle", session: () => "s", tui: () => "t" };' },
    });
    const [loaded] = (await loadFacets(manifestOf('bundle'), 'tui', lookupIn(sandbox)))._unsafeUnwrap();
    const tuiFacet = loaded?.facet as unknown as () => string;
    expect(tuiFacet()).toBe('t');
  });

  it('resolves a facet named by package from the plugin’s own folder', async () => {
    await using sandbox = await createPluginSandbox();
    await sandbox.install({ name: '@acme/c', pi: { apiVersion: '2.0', facets: { session: '@acme/c-session' } } });
    await sandbox.install({
      name: '@acme/c-session',
      files: { 'index.js': 'export default () => {};' },
    });
    const loaded = await loadFacets(manifestOf('@acme/c'), 'session', lookupIn(sandbox));
    expect(loaded._unsafeUnwrap()[0]?.module).toContain('c-session/index.js');
  });
});

describe('what refuses to start, in one line naming the plugin and the manifest', () => {
  const cases: Array<{ name: string; plugin: Parameters<PluginSandbox['install']>[0]; code: string; text: string }> = [
    { name: 'a package that is no plugin', plugin: { name: 'plain' }, code: 'not_a_plugin', text: 'no "pi" field' },
    {
      name: 'metadata with an unknown host',
      plugin: { name: 'odd', pi: { apiVersion: '2.0', facets: { web2: './x.mjs' } } },
      code: 'invalid_metadata',
      text: 'pi.facets',
    },
    {
      name: 'a malformed API version',
      plugin: { name: 'odd', pi: { apiVersion: 'one', facets: {} } },
      code: 'invalid_metadata',
      text: 'pi.apiVersion',
    },
    {
      name: 'a newer major API version',
      plugin: { name: 'future', pi: { apiVersion: '3.0', facets: {} } },
      code: 'api_mismatch',
      text: `built for plugin API 3.0, this pi provides ${PLUGIN_API_VERSION}`,
    },
    {
      name: 'a newer minor API version',
      plugin: { name: 'future', pi: { apiVersion: '2.7', facets: {} } },
      code: 'api_mismatch',
      text: 'built for plugin API 2.7',
    },
    {
      name: 'a facet module that does not exist',
      plugin: { name: 'gone', pi: { apiVersion: '2.0', facets: { session: './missing.mjs' } } },
      code: 'missing_module',
      text: 'missing.mjs',
    },
    {
      name: 'a facet module that throws while loading',
      plugin: {
        name: 'broken',
        pi: { apiVersion: '2.0', facets: { session: './session.mjs' } },
        files: { 'session.mjs': 'throw new Error("boom at load");' },
      },
      code: 'load_failed',
      text: 'boom at load',
    },
    {
      name: 'a facet module without a default facet',
      plugin: {
        name: 'shapeless',
        pi: { apiVersion: '2.0', facets: { session: './session.mjs' } },
        files: { 'session.mjs': 'export const facet = () => {};' },
      },
      code: 'invalid_facet',
      text: 'export default',
    },
  ];

  for (const { name, plugin, code, text } of cases) {
    it(`refuses ${name}`, async () => {
      await using sandbox = await createPluginSandbox();
      await sandbox.install(plugin);
      const loaded = await loadFacets(manifestOf(plugin.name), 'session', lookupIn(sandbox));
      const error = loaded._unsafeUnwrapErr();
      expect(error).toMatchObject({ code, reference: plugin.name });
      expect(error.message).toContain(text);
      expect(error.message).toContain('manifest /test/manifest.json');
      expect(error.message).not.toContain('\n');
    });
  }

  it('refuses an unknown plugin before importing any plugin’s code', async () => {
    await using sandbox = await createPluginSandbox();
    const marker = unique('first.session');
    await sandbox.install({
      name: 'first',
      pi: { apiVersion: '2.0', facets: { session: './session.mjs' } },
      files: { 'session.mjs': recordingModule(marker) },
    });
    const loaded = await loadFacets(manifestOf('first', '@acme/nowhere'), 'session', lookupIn(sandbox));
    expect(loaded._unsafeUnwrapErr()).toMatchObject({
      code: 'unknown_plugin',
      message: expect.stringContaining('Unknown plugin "@acme/nowhere" in manifest /test/manifest.json'),
    });
    expect(loadedMarkers()).not.toContain(marker);
  });

  it('refuses one plugin listed twice, by name and by path', async () => {
    await using sandbox = await createPluginSandbox();
    await sandbox.install({ name: 'twice', pi: { apiVersion: '2.0', facets: {} } });
    const loaded = await loadFacets(manifestOf('twice', './node_modules/twice'), 'session', lookupIn(sandbox));
    expect(loaded._unsafeUnwrapErr()).toMatchObject({ code: 'duplicate_plugin' });
  });
});
