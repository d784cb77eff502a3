import { type Tree, readJson } from '@nx/devkit';
import { createTreeWithEmptyWorkspace } from '@nx/devkit/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { pluginGenerator } from './generator';

describe('plugin generator', () => {
  let tree: Tree;
  beforeEach(() => {
    tree = createTreeWithEmptyWorkspace();
  });

  it('creates the contract and exactly the requested facets', async () => {
    await pluginGenerator(tree, { name: 'question', facets: 'session,tui' });
    expect(tree.children('plugins/question').sort()).toEqual(['contract', 'session', 'tui']);
    for (const kind of ['contract', 'session', 'tui']) {
      for (const file of ['package.json', 'tsconfig.json', 'vitest.config.ts', 'src/index.ts', 'src/index.test.ts']) {
        expect(tree.exists(`plugins/question/${kind}/${file}`), `${kind}/${file}`).toBe(true);
      }
    }
  });

  it('tags each project with the scope of the host that runs it', async () => {
    await pluginGenerator(tree, { name: 'question', facets: 'session,tui,coordinator' });
    const tagsOf = (kind: string) => readJson(tree, `plugins/question/${kind}/package.json`).nx.tags;
    expect(tagsOf('contract')).toEqual(['scope:shared', 'type:contract']);
    expect(tagsOf('session')).toEqual(['scope:session', 'type:feature']);
    expect(tagsOf('tui')).toEqual(['scope:presentation', 'type:feature']);
    expect(tagsOf('coordinator')).toEqual(['scope:coordinator', 'type:feature']);
  });

  it('names packages @pi/<name>-<facet> and pins facet dependencies exactly', async () => {
    await pluginGenerator(tree, { name: 'session-directory', facets: 'coordinator' });
    const contract = readJson(tree, 'plugins/session-directory/contract/package.json');
    const coordinator = readJson(tree, 'plugins/session-directory/coordinator/package.json');
    expect(contract).toMatchObject({ name: '@pi/session-directory-contract', version: '0.0.0' });
    expect(contract.dependencies).toBeUndefined();
    expect(coordinator).toMatchObject({
      name: '@pi/session-directory-coordinator',
      version: '0.0.0',
      exports: { '.': './src/index.ts' },
      scripts: { typecheck: 'tsc --noEmit -p tsconfig.json' },
      dependencies: { '@pi/session-directory-contract': '0.0.0', '@pi/kernel': '0.0.0' },
    });
  });

  it('writes a contract id constant that the facet imports and a facet over the lifecycle scope', async () => {
    await pluginGenerator(tree, { name: 'session-directory', facets: 'tui' });
    const contract = tree.read('plugins/session-directory/contract/src/index.ts', 'utf-8');
    const facet = tree.read('plugins/session-directory/tui/src/index.ts', 'utf-8');
    expect(contract).toContain("export const SESSION_DIRECTORY_PLUGIN_ID = '@pi/session-directory';");
    expect(facet).toContain("import type { PluginLifecycleScope } from '@pi/kernel';");
    expect(facet).toContain("import { SESSION_DIRECTORY_PLUGIN_ID } from '@pi/session-directory-contract';");
    expect(facet).toContain('export function sessionDirectoryTuiFacet(context: PluginLifecycleScope): void');
  });

  it('generates only the contract and the session facet when --facets is omitted', async () => {
    await pluginGenerator(tree, { name: 'question' });
    expect(tree.children('plugins/question').sort()).toEqual(['contract', 'session']);
  });

  it('schedules npm install so the new packages get linked, unless told to skip it', async () => {
    expect(typeof (await pluginGenerator(tree, { name: 'question' }))).toBe('function');
    expect(await pluginGenerator(tree, { name: 'answer', skipInstall: true })).toBeUndefined();
  });

  it('refuses to overwrite an existing plugin and leaves its files alone', async () => {
    tree.write('plugins/question/session/src/index.ts', 'export const mine = 1;\n');
    await expect(pluginGenerator(tree, { name: 'question', facets: 'tui' })).rejects.toThrow(
      'plugins/question already exists',
    );
    expect(tree.read('plugins/question/session/src/index.ts', 'utf-8')).toBe('export const mine = 1;\n');
    expect(tree.exists('plugins/question/contract')).toBe(false);
  });

  it('rejects invalid options before writing anything', async () => {
    await expect(pluginGenerator(tree, { name: 'Question' })).rejects.toThrow('not kebab-case');
    await expect(pluginGenerator(tree, { name: 'question', facets: 'web' })).rejects.toThrow('Unknown facet "web"');
    expect(tree.exists('plugins')).toBe(false);
  });
});
