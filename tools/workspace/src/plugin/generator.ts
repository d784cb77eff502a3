import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type GeneratorCallback,
  type Tree,
  generateFiles,
  getProjects,
  installPackagesTask,
  joinPathFragments,
  writeJson,
} from '@nx/devkit';
import type { HostFacet, PluginProjectKind } from './facets';
import { formatChanges } from './format-changes';
import { type PluginNames, pluginNames, projectPackageName } from './names';
import { type PluginGeneratorSchema, PluginOptionsError, normalizePluginOptions } from './options';
import { packageManifest } from './package-manifest';
import { writeStandalonePlugin } from './standalone-plugin';

const templates = fileURLToPath(new URL('./files', import.meta.url));
const nxCli = createRequire(import.meta.url).resolve('nx/bin/nx.js');

/**
 * `nx g @pi/workspace:plugin <name> --facets=session,tui`: writes plugins/<name>/contract (the package `@pi/<name>`,
 * whose `pi` metadata names the facets) and one project per facet, with a sample Greeting service the providing
 * facets serve and the tui facet uses. New packages are linked into node_modules by `npm install`, which the
 * returned callback runs (then `nx sync`, for their TypeScript project references); after that a manifest listing
 * `@pi/<name>` loads the plugin. With `--standalone` it writes one plugin package outside the workspace instead.
 */
export async function pluginGenerator(tree: Tree, schema: PluginGeneratorSchema): Promise<GeneratorCallback | void> {
  const options = normalizePluginOptions(schema);
  if (options.standaloneDirectory !== null) {
    // `--standalone`: one package outside the workspace, which its own `npm install` builds; nothing here changes.
    // The tree takes paths relative to the workspace; `../` leads out of it.
    const directory = relative(tree.root, resolve(tree.root, options.standaloneDirectory));
    if (tree.exists(directory)) {
      throw new PluginOptionsError(`${directory} already exists; the plugin generator never overwrites it.`);
    }
    writeStandalonePlugin(tree, directory, pluginNames(options.name), options.facets, templates);
    return;
  }
  const pluginRoot = joinPathFragments('plugins', options.name);
  if (tree.exists(pluginRoot)) {
    throw new PluginOptionsError(`${pluginRoot} already exists; the plugin generator never overwrites a plugin.`);
  }
  const kinds: PluginProjectKind[] = ['contract', ...options.facets];
  // The contract is named @pi/<name>, which a library may already be (a plugin named "kernel").
  const projects = getProjects(tree);
  const taken = kinds.map((kind) => projectPackageName(options.name, kind)).filter((name) => projects.has(name));
  if (taken.length > 0) {
    throw new PluginOptionsError(
      `${taken.join(', ')} already names a project of this workspace; pick another plugin name.`,
    );
  }
  const names = pluginNames(options.name);
  for (const kind of kinds) writeProject(tree, joinPathFragments(pluginRoot, kind), names, kind, options.facets);
  await formatChanges(tree);
  return () => {
    if (!options.skipInstall) installPackagesTask(tree, true);
    // The TypeScript project references of the new projects (and the solution's), from the project graph.
    execFileSync(process.execPath, [nxCli, 'sync'], { cwd: tree.root, stdio: 'inherit' });
  };
}

function writeProject(
  tree: Tree,
  root: string,
  names: PluginNames,
  kind: PluginProjectKind,
  facets: readonly HostFacet[],
): void {
  writeJson(tree, joinPathFragments(root, 'package.json'), packageManifest(names, kind, facets));
  writeJson(tree, joinPathFragments(root, 'tsconfig.json'), {
    extends: '../../../tsconfig.base.json',
    compilerOptions: {
      outDir: `../../../dist/out-tsc/${root}`,
      tsBuildInfoFile: `../../../dist/out-tsc/${root}/tsconfig.tsbuildinfo`,
    },
    include: ['src/**/*.ts', 'test/**/*.ts', 'vitest.config.ts'],
    // Filled in by `nx sync` (the generator's callback runs it): one reference per project it depends on.
    references: [],
  });
  const substitutions = {
    ...names,
    packageName: projectPackageName(names.name, kind),
    tmpl: '', // strips the __tmpl__ suffix that keeps templates out of lint, typecheck and Prettier
  };
  generateFiles(tree, joinPathFragments(templates, 'project'), root, substitutions);
  generateFiles(tree, joinPathFragments(templates, kind), root, substitutions);
}

export default pluginGenerator;
