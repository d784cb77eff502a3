import { relative } from 'node:path';
import { type Tree, readJson } from '@nx/devkit';
import { createTreeWithEmptyWorkspace } from '@nx/devkit/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { PLUGIN_API_VERSION, pluginMetadataSchema } from '@pi/plugin-api';
import { pluginGenerator } from './generator';

describe('plugin generator --standalone', () => {
  let tree: Tree;
  beforeEach(() => {
    tree = createTreeWithEmptyWorkspace();
  });

  it('writes one package outside the workspace, with a compiled module per facet, and no project inside it', async () => {
    await pluginGenerator(tree, { name: 'tally', facets: 'session,tui', standalone: true });
    const dir = '../pi-plugin-tally';
    expect(tree.children(dir).sort()).toEqual(['README.md', 'package.json', 'src', 'tsconfig.json']);
    expect(tree.children(`${dir}/src`).sort()).toEqual(['greeting.ts', 'index.ts', 'session.ts', 'tui.ts']);
    expect(tree.exists('plugins/tally')).toBe(false);

    const manifest = readJson(tree, `${dir}/package.json`);
    expect(manifest).toMatchObject({ name: 'pi-plugin-tally', type: 'module', scripts: { prepare: 'tsc' } });
    const metadata = pluginMetadataSchema.parse(manifest.pi);
    expect(metadata).toMatchObject({
      apiVersion: PLUGIN_API_VERSION,
      facets: { session: './dist/session.js', tui: './dist/tui.js' },
    });
    expect(manifest.pi.id).toBe('tally');
  });

  it('depends on the packed plugin API by the path of its tarball in this checkout, from where it is written', async () => {
    await pluginGenerator(tree, { name: 'tally', standalone: true, directory: '../elsewhere/deep/tally' });
    const { dependencies } = readJson(tree, '../elsewhere/deep/tally/package.json');
    const tarball = relative(
      `${tree.root}/../elsewhere/deep/tally`,
      `${tree.root}/dist/packages/pi-plugin-api-0.0.0.tgz`,
    );
    expect(dependencies['@pi/plugin-api']).toBe(`file:${tarball}`);
    expect(tarball).toMatch(/^\.\.\/\.\.\/\.\.\/[^.]/);
    expect(dependencies['zod']).toMatch(/^4\.\d+\.\d+$/);
  });

  it('takes an absolute directory, and names the sample service and command after the plugin', async () => {
    await pluginGenerator(tree, {
      name: 'my-tally',
      facets: ['session', 'tui', 'coordinator'],
      standalone: true,
      directory: '/tmp/x/my-tally',
    });
    const found = relative(tree.root, '/tmp/x/my-tally');
    expect(tree.read(`${found}/src/greeting.ts`, 'utf8')).toContain(
      "defineRemoteService<GreetingService>('my-tally-greeting'",
    );
    expect(tree.read(`${found}/src/tui.ts`, 'utf8')).toContain("slash: 'my-tally-greet'");
    expect(tree.read(`${found}/src/coordinator.ts`, 'utf8')).toContain('const myTallyCoordinator');
  });

  it('refuses --directory without --standalone, and a folder that exists', async () => {
    await expect(pluginGenerator(tree, { name: 'tally', directory: '../x' })).rejects.toThrow(
      /--directory is for a standalone plugin/,
    );
    tree.write('../pi-plugin-tally/keep.txt', 'mine');
    await expect(pluginGenerator(tree, { name: 'tally', standalone: true })).rejects.toThrow(/already exists/);
    expect(tree.read('../pi-plugin-tally/keep.txt', 'utf8')).toBe('mine');
  });
});
