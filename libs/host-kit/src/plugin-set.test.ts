import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reloadPluginSet, resolvePluginSet } from './plugin-set';
import { createPluginSandbox, loadedMarkers, recordingModule, type PluginSandbox } from './testing';

const unique = (label: string) => `${label}-${randomUUID()}`;

/** A sandbox with a base manifest, a config dir and a project, each naming one plugin with every host's facet. */
async function scopedSandbox(sandbox: PluginSandbox) {
  const markers = { base: unique('base'), global: unique('global'), project: unique('project') };
  const plugin = (name: string, marker: string) => ({
    name,
    pi: { apiVersion: '2.0', facets: { session: './s.mjs', tui: './t.mjs', coordinator: './c.mjs' } },
    files: {
      's.mjs': recordingModule(`${marker}.session`),
      't.mjs': recordingModule(`${marker}.tui`),
      'c.mjs': recordingModule(`${marker}.coordinator`),
    },
  });
  await sandbox.place('base/node_modules/base-plugin', plugin('base-plugin', markers.base));
  await sandbox.place('config/packages/node_modules/global-plugin', plugin('global-plugin', markers.global));
  await sandbox.place('project/.pi/local-plugin', plugin('project-plugin', markers.project));
  await write(sandbox, 'base/manifest.json', { plugins: ['base-plugin'] });
  await write(sandbox, 'config/plugins.json', { plugins: [{ id: 'global-plugin', config: { level: 1 } }] });
  await write(sandbox, 'project/.pi/plugins.json', { plugins: ['./local-plugin'] });
  return {
    markers,
    request: {
      configDir: join(sandbox.root, 'config'),
      project: join(sandbox.root, 'project'),
      manifestFile: join(sandbox.root, 'base/manifest.json'),
    },
  };
}

async function write(sandbox: PluginSandbox, file: string, json: unknown) {
  await mkdir(dirname(join(sandbox.root, file)), { recursive: true });
  await writeFile(join(sandbox.root, file), typeof json === 'string' ? json : JSON.stringify(json));
}

describe('the plugin set of a host in a directory', () => {
  it('loads the base, then the global plugins, then the project’s, with their config', async () => {
    await using sandbox = await createPluginSandbox();
    const { request, markers } = await scopedSandbox(sandbox);
    const set = (await resolvePluginSet({ ...request, host: 'session' }))._unsafeUnwrap();
    expect(set.facets.map(({ id, config }) => ({ id, config }))).toEqual([
      { id: 'base-plugin', config: null },
      { id: 'global-plugin', config: { level: 1 } },
      { id: 'project-plugin', config: null },
    ]);
    expect(set.scopes.map(({ scope, plugins }) => ({ scope, plugins }))).toEqual([
      { scope: 'manifest', plugins: ['base-plugin'] },
      { scope: 'global', plugins: ['global-plugin'] },
      { scope: 'project', plugins: ['project-plugin'] },
    ]);
    expect(set.problems).toEqual([]);
    expect(loadedMarkers()).toContain(`${markers.project}.session`);
  });

  it('the coordinator loads the global plugins but never the project’s code', async () => {
    await using sandbox = await createPluginSandbox();
    const { request, markers } = await scopedSandbox(sandbox);
    const set = (await resolvePluginSet({ ...request, host: 'coordinator' }))._unsafeUnwrap();
    expect(set.facets.map(({ id }) => id)).toEqual(['base-plugin', 'global-plugin']);
    expect(set.scopes.map(({ scope }) => scope)).toEqual(['manifest', 'global']);
    expect(loadedMarkers()).toContain(`${markers.global}.coordinator`);
    expect(loadedMarkers()).not.toContain(`${markers.project}.coordinator`);
  });

  it('a directory without scope manifests loads the base alone', async () => {
    await using sandbox = await createPluginSandbox();
    const { request } = await scopedSandbox(sandbox);
    const set = (
      await resolvePluginSet({
        ...request,
        host: 'tui',
        configDir: join(sandbox.root, 'nowhere'),
        project: join(sandbox.root, 'nowhere'),
      })
    )._unsafeUnwrap();
    expect(set.facets.map(({ id }) => id)).toEqual(['base-plugin']);
    expect(set.problems).toEqual([]);
  });

  it.each([
    { name: 'not JSON', text: '{ "plugins": [', says: 'is not valid JSON' },
    { name: 'an unknown key', text: '{ "plugin": [] }', says: 'unknown key "plugin"' },
    { name: 'an unknown plugin', text: '{ "plugins": ["@acme/absent"] }', says: 'Unknown plugin "@acme/absent"' },
  ])(
    'a project manifest with $name is left out, named in a problem, and the rest still loads',
    async ({ text, says }) => {
      await using sandbox = await createPluginSandbox();
      const { request } = await scopedSandbox(sandbox);
      await write(sandbox, 'project/.pi/plugins.json', text);
      const set = (await resolvePluginSet({ ...request, host: 'session' }))._unsafeUnwrap();
      expect(set.facets.map(({ id }) => id)).toEqual(['base-plugin', 'global-plugin']);
      expect(set.problems).toHaveLength(1);
      expect(set.problems[0]).toContain(join(sandbox.root, 'project/.pi/plugins.json'));
      expect(set.problems[0]).toContain(says);
      expect(set.problems[0]).toContain('the project plugins were not loaded');
    },
  );

  it('a global scope whose facet fails to load is left out while the project’s loads', async () => {
    await using sandbox = await createPluginSandbox();
    const { request } = await scopedSandbox(sandbox);
    await write(sandbox, 'config/packages/node_modules/global-plugin/s.mjs', 'throw new Error("boom");');
    const set = (await resolvePluginSet({ ...request, host: 'session' }))._unsafeUnwrap();
    expect(set.facets.map(({ id }) => id)).toEqual(['base-plugin', 'project-plugin']);
    expect(set.problems).toEqual([expect.stringMatching(/global-plugin.*boom.*the global plugins were not loaded/)]);
  });

  it('with PI_DEBUG=1, a facet module that throws while imported is told with its stack and cause', async () => {
    await using sandbox = await createPluginSandbox();
    const { request } = await scopedSandbox(sandbox);
    const throwing = 'throw new Error("import broke", { cause: new Error("a missing file") });';
    await write(sandbox, 'config/packages/node_modules/global-plugin/s.mjs', throwing);
    const env = { PI_DEBUG: '1' };
    const problem = (await resolvePluginSet({ ...request, host: 'session', env }))._unsafeUnwrap().problems[0] ?? '';
    const [line, ...detail] = problem.split('\n');
    expect(line).toMatch(/global-plugin.*import broke \(the global plugins were not loaded\)$/);
    expect(detail[0]).toBe('  Error: import broke');
    expect(detail[1]).toMatch(/^ {6}at .*global-plugin\/s\.mjs:1:/);
    expect(detail).toContain('  caused by: Error: a missing file');

    await sandbox.place('base/node_modules/broken-base', {
      name: 'broken-base',
      pi: { apiVersion: '2.0', facets: { session: './s.mjs' } },
      files: { 's.mjs': throwing },
    });
    await write(sandbox, 'base/manifest.json', { plugins: ['broken-base'] });
    const base = (await resolvePluginSet({ ...request, host: 'session', env }))._unsafeUnwrapErr().split('\n');
    expect(base[0]).toMatch(/broken-base.*import broke$/);
    expect(base).toContain('  caused by: Error: a missing file');
    const plain = await resolvePluginSet({ ...request, host: 'session', env: { PI_DEBUG: '' } });
    expect(plain._unsafeUnwrapErr()).not.toContain('\n');
  });

  it('a plugin an earlier scope loads is skipped in the later one, with a problem naming both', async () => {
    await using sandbox = await createPluginSandbox();
    const { request } = await scopedSandbox(sandbox);
    await sandbox.place('project/.pi/packages/node_modules/global-plugin', {
      name: 'global-plugin',
      pi: { apiVersion: '2.0', facets: { session: './s.mjs' } },
      files: { 's.mjs': 'export default () => {};' },
    });
    await write(sandbox, 'project/.pi/plugins.json', { plugins: ['global-plugin', './local-plugin'] });
    const set = (await resolvePluginSet({ ...request, host: 'session' }))._unsafeUnwrap();
    expect(set.facets.map(({ id }) => id)).toEqual(['base-plugin', 'global-plugin', 'project-plugin']);
    expect(set.facets[1]?.module).toContain('config/packages');
    expect(set.problems).toEqual([
      `Plugin "global-plugin" in manifest ${join(sandbox.root, 'project/.pi/plugins.json')} is skipped: ${join(sandbox.root, 'config/plugins.json')} already loads it`,
    ]);
  });

  it('a base manifest that fails is an error, not a problem', async () => {
    await using sandbox = await createPluginSandbox();
    const { request } = await scopedSandbox(sandbox);
    await write(sandbox, 'base/manifest.json', { plugins: ['@acme/absent'] });
    const set = await resolvePluginSet({ ...request, host: 'session' });
    expect(set._unsafeUnwrapErr()).toContain('Unknown plugin "@acme/absent"');
  });
});

describe('the plugin set read again for a reload', () => {
  it('fails when a plugin that loaded at start no longer loads, naming its file', async () => {
    await using sandbox = await createPluginSandbox();
    const { request } = await scopedSandbox(sandbox);
    const start = (await resolvePluginSet({ ...request, host: 'tui' }))._unsafeUnwrap();
    await write(sandbox, 'project/.pi/local-plugin/t.mjs', 'export const = ;');
    const reload = await reloadPluginSet({ ...request, host: 'tui', generation: 2 }, start.problems);
    expect(reload._unsafeUnwrapErr()).toMatch(/project-plugin.*t\.mjs.*the project plugins were not loaded/);
  });

  it('may leave out again a scope the start left out, and loads the rest', async () => {
    await using sandbox = await createPluginSandbox();
    const { request } = await scopedSandbox(sandbox);
    await write(sandbox, 'config/plugins.json', '{ not json');
    const start = (await resolvePluginSet({ ...request, host: 'tui' }))._unsafeUnwrap();
    expect(start.problems).toHaveLength(1);
    const reload = (await reloadPluginSet({ ...request, host: 'tui', generation: 2 }, start.problems))._unsafeUnwrap();
    expect(reload.facets.map(({ id }) => id)).toEqual(['base-plugin', 'project-plugin']);
    expect(reload.problems).toEqual(start.problems);
  });
});
