import { fileURLToPath } from 'node:url';
import {
  type GeneratorCallback,
  type Tree,
  generateFiles,
  installPackagesTask,
  joinPathFragments,
  writeJson,
} from '@nx/devkit';
import { type PluginProjectKind, pluginProjectTags } from './facets';
import { type PluginNames, pluginNames, projectPackageName } from './names';
import { type PluginGeneratorSchema, PluginOptionsError, normalizePluginOptions } from './options';

const templates = fileURLToPath(new URL('./files', import.meta.url));

/** The version every workspace package carries; workspace dependencies are pinned to it exactly. */
const workspaceVersion = '0.0.0';

/**
 * `nx g @pi/workspace:plugin <name> --facets=session,tui`: writes plugins/<name>/contract and one project per
 * facet. New workspace packages are linked into node_modules by `npm install`, which the returned callback runs.
 */
export async function pluginGenerator(tree: Tree, schema: PluginGeneratorSchema): Promise<GeneratorCallback | void> {
  const options = normalizePluginOptions(schema);
  const pluginRoot = joinPathFragments('plugins', options.name);
  if (tree.exists(pluginRoot)) {
    throw new PluginOptionsError(`${pluginRoot} already exists; the plugin generator never overwrites a plugin.`);
  }
  const names = pluginNames(options.name);
  const kinds: PluginProjectKind[] = ['contract', ...options.facets];
  for (const kind of kinds) writeProject(tree, joinPathFragments(pluginRoot, kind), names, kind);
  if (options.skipInstall) return;
  return () => installPackagesTask(tree, true);
}

function writeProject(tree: Tree, root: string, names: PluginNames, kind: PluginProjectKind): void {
  const packageName = projectPackageName(names.name, kind);
  const dependencies: Record<string, string> =
    kind === 'contract'
      ? {}
      : { [projectPackageName(names.name, 'contract')]: workspaceVersion, '@pi/kernel': workspaceVersion };
  writeJson(tree, joinPathFragments(root, 'package.json'), {
    name: packageName,
    version: workspaceVersion,
    private: true,
    type: 'module',
    exports: { '.': './src/index.ts' },
    scripts: { typecheck: 'tsc --noEmit -p tsconfig.json' },
    ...(kind === 'contract' ? {} : { dependencies }),
    nx: { tags: [...pluginProjectTags[kind]] },
  });
  writeJson(tree, joinPathFragments(root, 'tsconfig.json'), {
    extends: '../../../tsconfig.base.json',
    include: ['src/**/*.ts', 'test/**/*.ts', 'vitest.config.ts'],
  });
  const substitutions = {
    ...names,
    packageName,
    kind,
    Kind: kind[0]?.toUpperCase() + kind.slice(1),
    contractPackage: projectPackageName(names.name, 'contract'),
    tmpl: '', // strips the __tmpl__ suffix that keeps templates out of lint and typecheck
  };
  generateFiles(tree, joinPathFragments(templates, 'project'), root, substitutions);
  generateFiles(tree, joinPathFragments(templates, kind === 'contract' ? 'contract' : 'facet'), root, substitutions);
}

export default pluginGenerator;
