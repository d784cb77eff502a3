import { readFileSync } from 'node:fs';
import { type Tree, readJson, updateJson } from '@nx/devkit';
import { createTreeWithEmptyWorkspace } from '@nx/devkit/testing';
import { format } from 'oxfmt';
import { beforeEach, describe, expect, it } from 'vitest';
import { PLUGIN_API_VERSION, pluginMetadataSchema } from '@pi/plugin-api';
import { pluginGenerator } from './generator';
import { ZOD_VERSION } from './package-manifest';

const workspaceFormatConfig = readFileSync(new URL('../../../../.oxfmtrc.json', import.meta.url), 'utf8');

describe('plugin generator', () => {
  let tree: Tree;
  beforeEach(() => {
    tree = createTreeWithEmptyWorkspace();
    // As in the real workspace: its formatter config, and packages as projects.
    tree.write('.oxfmtrc.json', workspaceFormatConfig);
    updateJson(tree, 'package.json', (json) => ({ ...json, workspaces: ['libs/*', 'plugins/*/*'] }));
  });

  it('creates the contract and exactly the requested facets', async () => {
    await pluginGenerator(tree, { name: 'question', facets: 'session,tui' });
    expect(tree.children('plugins/question').sort()).toEqual(['contract', 'session', 'tui']);
    for (const kind of ['contract', 'session', 'tui']) {
      for (const file of ['package.json', 'tsconfig.json', 'vitest.config.ts', 'src/index.ts']) {
        expect(tree.exists(`plugins/question/${kind}/${file}`), `${kind}/${file}`).toBe(true);
      }
    }
    expect(tree.children('plugins/question/contract/src').sort()).toEqual([
      'contract.test.ts',
      'greeting.ts',
      'index.ts',
      'plugin.ts',
    ]);
    expect(tree.children('plugins/question/session/src').sort()).toEqual(['index.test.ts', 'index.ts']);
  });

  it('tags each project with the scope of the host that runs it', async () => {
    await pluginGenerator(tree, { name: 'question', facets: 'session,tui,coordinator' });
    const tagsOf = (kind: string) => readJson(tree, `plugins/question/${kind}/package.json`).nx.tags;
    expect(tagsOf('contract')).toEqual(['scope:shared', 'type:contract']);
    expect(tagsOf('session')).toEqual(['scope:session', 'type:feature']);
    expect(tagsOf('tui')).toEqual(['scope:presentation', 'type:feature']);
    expect(tagsOf('coordinator')).toEqual(['scope:coordinator', 'type:feature']);
  });

  it('names the contract by the plugin id and gives it plugin metadata naming exactly the chosen facets', async () => {
    await pluginGenerator(tree, { name: 'session-directory', facets: 'tui,coordinator' });
    const contract = readJson(tree, 'plugins/session-directory/contract/package.json');
    expect(contract).toMatchObject({
      name: '@pi/session-directory',
      version: '0.0.0',
      exports: { '.': './src/index.ts', './package.json': './package.json' },
      dependencies: { '@pi/plugin-api': '0.0.0', zod: ZOD_VERSION },
    });
    expect(pluginMetadataSchema.parse(contract.pi)).toEqual({
      apiVersion: PLUGIN_API_VERSION,
      description: expect.any(String),
      facets: { tui: '@pi/session-directory-tui', coordinator: '@pi/session-directory-coordinator' },
    });
  });

  it('names facets @pi/<name>-<host> and pins workspace dependencies at 0.0.0, test kits as dev dependencies', async () => {
    await pluginGenerator(tree, { name: 'session-directory', facets: 'session,tui,coordinator' });
    const facet = (kind: string) => readJson(tree, `plugins/session-directory/${kind}/package.json`);
    const runtime = { '@pi/plugin-api': '0.0.0', '@pi/session-directory': '0.0.0' };
    expect(facet('session')).toMatchObject({
      name: '@pi/session-directory-session',
      exports: { '.': './src/index.ts' },
      dependencies: runtime,
      devDependencies: { '@pi/host-session': '0.0.0', '@pi/test-support': '0.0.0' },
    });
    expect(facet('tui')).toMatchObject({ name: '@pi/session-directory-tui', dependencies: runtime });
    expect(facet('tui').devDependencies).toEqual({
      '@pi/host-tui': '0.0.0',
      '@pi/remote': '0.0.0',
      '@pi/test-support': '0.0.0',
    });
    expect(facet('coordinator')).toMatchObject({
      name: '@pi/session-directory-coordinator',
      dependencies: runtime,
      devDependencies: { '@pi/host-coordinator': '0.0.0' },
    });
    expect(facet('coordinator').pi).toBeUndefined();
  });

  it('writes a sample remote service in the contract that the session facet provides and the tui facet uses', async () => {
    await pluginGenerator(tree, { name: 'session-directory', facets: 'session,tui,coordinator' });
    const read = (path: string) => tree.read(`plugins/session-directory/${path}`, 'utf-8');
    expect(read('contract/src/plugin.ts')).toContain(
      "export const SESSION_DIRECTORY_PLUGIN_ID = '@pi/session-directory';",
    );
    expect(read('contract/src/greeting.ts')).toContain(
      "export const Greeting = defineRemoteService<GreetingService>('session-directory-greeting', {",
    );
    const session = read('session/src/index.ts');
    expect(session).toContain("import type { SessionFacet } from '@pi/plugin-api';");
    expect(session).toContain('export const sessionDirectorySessionFacet: SessionFacet = (context) => {');
    expect(session).toContain('context.provide(Greeting, {');
    expect(session).toContain('export default sessionDirectorySessionFacet;');
    const tui = read('tui/src/index.ts');
    expect(tui).toContain("export const sessionDirectoryTuiFacet: Facet<'tui'> = (context) => {");
    expect(tui).toContain("slash: 'session-directory-greet',");
    expect(tui).toContain('await context.use(Greeting)');
    expect(read('coordinator/src/index.ts')).toContain(
      "export const sessionDirectoryCoordinatorFacet: Facet<'coordinator'> = (context) => {",
    );
    expect(read('session/src/index.test.ts')).toContain("from '@pi/host-session/testing';");
  });

  it('formats what it writes as the workspace formatter does', async () => {
    await pluginGenerator(tree, { name: 'a-rather-long-plugin-name-to-wrap-lines', facets: 'session,tui,coordinator' });
    const written = tree.listChanges().filter((change) => change.path.startsWith('plugins/'));
    expect(written.length).toBeGreaterThan(0);
    const { singleQuote, printWidth } = JSON.parse(workspaceFormatConfig) as {
      singleQuote: boolean;
      printWidth: number;
    };
    for (const { path, content } of written) {
      const text = content?.toString('utf-8') ?? '';
      expect((await format(path, text, { singleQuote, printWidth })).code, path).toBe(text);
    }
  });

  it('formats with the settings of the workspace it writes into', async () => {
    tree.write('.oxfmtrc.json', JSON.stringify({ singleQuote: false, printWidth: 80 }));
    await pluginGenerator(tree, { name: 'question' });
    const index = tree.read('plugins/question/contract/src/index.ts', 'utf-8') ?? '';
    expect(index).toContain('from "');
    expect(index).not.toContain("from '");
  });

  it('refuses a formatter config that is not JSON, naming the file', async () => {
    tree.write('.oxfmtrc.json', '{ singleQuote: ');
    await expect(pluginGenerator(tree, { name: 'question' })).rejects.toThrow('.oxfmtrc.json');
  });

  it('generates only the contract and the session facet when --facets is omitted', async () => {
    await pluginGenerator(tree, { name: 'question' });
    expect(tree.children('plugins/question').sort()).toEqual(['contract', 'session']);
    expect(readJson(tree, 'plugins/question/contract/package.json').pi.facets).toEqual({
      session: '@pi/question-session',
    });
  });

  it('gives each project a tsconfig that builds declarations into dist/out-tsc, its references left to nx sync', async () => {
    await pluginGenerator(tree, { name: 'question', facets: 'session' });
    expect(readJson(tree, 'plugins/question/session/tsconfig.json')).toEqual({
      extends: '../../../tsconfig.base.json',
      compilerOptions: {
        outDir: '../../../dist/out-tsc/plugins/question/session',
        tsBuildInfoFile: '../../../dist/out-tsc/plugins/question/session/tsconfig.tsbuildinfo',
      },
      include: ['src/**/*.ts', 'test/**/*.ts', 'vitest.config.ts'],
      references: [],
    });
    expect(readJson(tree, 'plugins/question/session/package.json').scripts).toBeUndefined();
  });

  it('schedules npm install (unless told to skip it) and nx sync, which need the files on disk', async () => {
    expect(typeof (await pluginGenerator(tree, { name: 'question' }))).toBe('function');
    expect(typeof (await pluginGenerator(tree, { name: 'answer', skipInstall: true }))).toBe('function');
  });

  it('refuses to overwrite an existing plugin and leaves its files alone', async () => {
    tree.write('plugins/question/session/src/index.ts', 'export const mine = 1;\n');
    await expect(pluginGenerator(tree, { name: 'question', facets: 'tui' })).rejects.toThrow(
      'plugins/question already exists',
    );
    expect(tree.read('plugins/question/session/src/index.ts', 'utf-8')).toBe('export const mine = 1;\n');
    expect(tree.exists('plugins/question/contract')).toBe(false);
  });

  it('refuses a name whose packages another project already has, since the contract is named @pi/<name>', async () => {
    tree.write('libs/kernel/package.json', JSON.stringify({ name: '@pi/kernel', version: '0.0.0' }));
    await expect(pluginGenerator(tree, { name: 'kernel' })).rejects.toThrow(
      '@pi/kernel already names a project of this workspace',
    );
    expect(tree.exists('plugins/kernel')).toBe(false);
  });

  it('rejects invalid options before writing anything', async () => {
    await expect(pluginGenerator(tree, { name: 'Question' })).rejects.toThrow('not kebab-case');
    await expect(pluginGenerator(tree, { name: 'question', facets: 'web' })).rejects.toThrow('Unknown facet "web"');
    expect(tree.exists('plugins')).toBe(false);
  });
});
