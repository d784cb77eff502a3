import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resolvePluginSet } from '@pi/host-kit';
import { installPackage, removePackage } from './install-package';
import { installedPackages, packageResourceDirs } from './installed-packages';
import {
  NPM_TIMEOUT_MS,
  packPluginFixture,
  packedPluginFixture,
  pluginProjectFixture,
  writeJson,
  type PackedPlugin,
} from './testing';

const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

describe('pi install, list and remove of a packed plugin', { timeout: NPM_TIMEOUT_MS }, () => {
  // One packing of the greeter serves every test that installs it; each installs into a project of its own.
  let greeter: PackedPlugin;
  beforeAll(async () => {
    greeter = await packPluginFixture();
  }, NPM_TIMEOUT_MS);
  afterAll(() => greeter?.[Symbol.asyncDispose]());

  it('installs a tarball by path into an empty project’s .pi, adds its plugins, and a host loads them by name', async () => {
    await using fixture = await pluginProjectFixture(greeter.tarball);
    const { tarball, project, configDir, env } = fixture;
    const installed = await installPackage(tarball, { scope: 'project', configDir, cwd: project, env });

    expect(installed._unsafeUnwrap()).toMatchObject({
      scope: 'project',
      name: '@acme/pi-greeter',
      version: '1.2.3',
      plugins: ['@acme/pi-greeter', './packages/node_modules/@acme/pi-greeter/inner'],
    });
    const manifest = JSON.parse(await readFile(join(project, '.pi', 'plugins.json'), 'utf8'));
    expect(manifest).toEqual({ plugins: ['@acme/pi-greeter', './packages/node_modules/@acme/pi-greeter/inner'] });
    const set = (
      await resolvePluginSet({ host: 'session', configDir, project, manifestFile: await emptyBase(project) })
    )._unsafeUnwrap();
    expect(set.problems).toEqual([]);
    expect(set.facets.map(({ id }) => id)).toEqual(['@acme/pi-greeter']);
    expect(set.scopes.at(-1)?.plugins).toEqual(['@acme/pi-greeter', 'greeter-inner']);
  });

  it('installs the same tarball again without a second manifest entry', async () => {
    await using fixture = await pluginProjectFixture(greeter.tarball);
    const { tarball, project, configDir, env } = fixture;
    const request = { scope: 'global' as const, configDir, cwd: project, env };
    (await installPackage(tarball, request))._unsafeUnwrap();
    expect((await installPackage(tarball, request))._unsafeUnwrap().name).toBe('@acme/pi-greeter');
    expect(JSON.parse(await readFile(join(configDir, 'plugins.json'), 'utf8')).plugins).toHaveLength(2);
  });

  it('lists what each scope installed and the resource folders packages carry', async () => {
    await using fixture = await pluginProjectFixture(greeter.tarball);
    const { tarball, project, configDir, env } = fixture;
    await installPackage(tarball, { scope: 'global', configDir, cwd: project, env });

    const listed = await installedPackages({ configDir, project });
    expect(listed.map(({ scope, name, version }) => ({ scope, name, version }))).toEqual([
      { scope: 'global', name: '@acme/pi-greeter', version: '1.2.3' },
    ]);
    expect(await packageResourceDirs({ configDir, project }, 'skills')).toEqual([
      join(configDir, 'packages', 'node_modules', '@acme', 'pi-greeter', 'skills'),
    ]);
    expect(await packageResourceDirs({ configDir }, 'prompts')).toEqual([]);
  });

  it('removes a package and its plugins from the scope, keeping the manifest’s other entries', async () => {
    await using fixture = await pluginProjectFixture(greeter.tarball);
    const { tarball, project, configDir, env } = fixture;
    await writeJson(join(project, '.pi', 'plugins.json'), { plugins: [{ id: './mine', config: { a: 1 } }] });
    await installPackage(tarball, { scope: 'project', configDir, cwd: project, env });

    const removed = await removePackage('@acme/pi-greeter', { scope: 'project', configDir, cwd: project, env });
    expect(removed._unsafeUnwrap().plugins).toEqual([
      '@acme/pi-greeter',
      './packages/node_modules/@acme/pi-greeter/inner',
    ]);
    expect(JSON.parse(await readFile(join(project, '.pi', 'plugins.json'), 'utf8'))).toEqual({
      plugins: [{ id: './mine', config: { a: 1 } }],
    });
    expect(await installedPackages({ configDir, project })).toEqual([]);
  });

  it('refuses to remove what the scope has not installed, naming the scope', async () => {
    const project = await mkdtemp(join(tmpdir(), 'pi-packages-'));
    folders.push(project);
    const configDir = join(project, 'config');
    const env = process.env;
    const removed = await removePackage('nothing-here', { scope: 'global', configDir, cwd: project, env });
    expect(removed._unsafeUnwrapErr()).toMatchObject({ code: 'not_installed' });
    expect(removed._unsafeUnwrapErr().message).toContain(join(configDir, 'packages'));
  });

  it('uninstalls a package that is no pi package again, and leaves the manifest alone', async () => {
    await using fixture = await pluginProjectFixture(greeter.tarball);
    const { root, project, configDir, env } = fixture;
    const plain = join(root, 'plain');
    await writeJson(join(plain, 'package.json'), { name: 'plain-lib', version: '1.0.0' });
    const installed = await installPackage(plain, { scope: 'project', configDir, cwd: project, env });
    expect(installed._unsafeUnwrapErr()).toMatchObject({ code: 'not_a_pi_package' });
    expect(await installedPackages({ configDir, project })).toEqual([]);
    await expect(readFile(join(project, '.pi', 'plugins.json'), 'utf8')).rejects.toThrow();
  });

  it('refuses a plugin this pi cannot load, and uninstalls it', async () => {
    await using fixture = await packedPluginFixture({
      apiVersion: '9.0',
      facets: { session: './session.mjs' },
    });
    const { tarball, project, configDir, env } = fixture;
    const installed = await installPackage(tarball, { scope: 'project', configDir, cwd: project, env });
    expect(installed._unsafeUnwrapErr()).toMatchObject({ code: 'invalid_plugin' });
    expect(installed._unsafeUnwrapErr().message).toContain('built for plugin API 9.0');
    expect(await installedPackages({ configDir, project })).toEqual([]);
  });

  it.each([
    { given: '', says: 'No package given' },
    { given: './no-such.tgz', says: 'No such file or folder' },
    { given: 'Not A Name!', says: 'neither an npm package name, a path nor a git URL' },
  ])('refuses the source "$given" before running npm', async ({ given, says }) => {
    const project = await mkdtemp(join(tmpdir(), 'pi-packages-'));
    folders.push(project);
    const request = { scope: 'project' as const, configDir: join(project, 'config'), cwd: project, env: process.env };
    const installed = await installPackage(given, request);
    expect(installed._unsafeUnwrapErr()).toMatchObject({ code: 'bad_source' });
    expect(installed._unsafeUnwrapErr().message).toContain(says);
  });
});

/** A base manifest with nothing in it, so the test loads only the installed plugins. */
async function emptyBase(project: string): Promise<string> {
  const file = join(project, '..', 'base.json');
  await writeJson(file, { plugins: [] });
  return file;
}
