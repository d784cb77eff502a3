import { join, relative } from 'node:path';
import { type Tree, generateFiles, joinPathFragments, writeJson } from '@nx/devkit';
import { PLUGIN_API_VERSION } from '@pi/plugin-api';
import type { HostFacet } from './facets';
import type { PluginNames } from './names';
import { WORKSPACE_VERSION, ZOD_VERSION } from './package-manifest';

/** The npm name of a standalone plugin package: `pi-plugin-<name>`, as third-party packages are named. */
export function standalonePackageName(name: string): string {
  return `pi-plugin-${name}`;
}

/** The TypeScript and Node types a standalone plugin compiles with: those the workspace checks the packed API with. */
// Exact versions, as every dependency of the workspace is pinned: a generated plugin builds as the checked one did.
const TOOLCHAIN = { typescript: '5.9.3', '@types/node': '20.19.43' };

/**
 * The package.json of a plugin outside the workspace: one package whose `pi` field names a compiled module per
 * host, depending on the packed plugin API by the path of its tarball in the pi checkout.
 */
export function standaloneManifest(
  names: PluginNames,
  facets: readonly HostFacet[],
  pluginApiTarball: string,
): Record<string, unknown> {
  return {
    name: standalonePackageName(names.name),
    version: '0.1.0',
    description: `The ${names.name} pi plugin (generated; say here what it adds)`,
    type: 'module',
    exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' }, './package.json': './package.json' },
    pi: {
      id: names.name,
      apiVersion: PLUGIN_API_VERSION,
      description: `The ${names.name} plugin (generated; say here what it adds)`,
      facets: Object.fromEntries(facets.map((host) => [host, `./dist/${host}.js`])),
    },
    scripts: { build: 'tsc', prepare: 'tsc' },
    dependencies: { '@pi/plugin-api': `file:${pluginApiTarball}`, zod: ZOD_VERSION },
    devDependencies: TOOLCHAIN,
  };
}

/**
 * Writes a standalone plugin package into `directory` (relative to the workspace; outside it, `../…`, is the
 * point): sources, tsconfig.json, package.json and a README. Nothing in the workspace changes.
 */
export function writeStandalonePlugin(
  tree: Tree,
  directory: string,
  names: PluginNames,
  facets: readonly HostFacet[],
  templates: string,
): void {
  const tarball = join(tree.root, 'dist', 'packages', `pi-plugin-api-${WORKSPACE_VERSION}.tgz`);
  const manifest = standaloneManifest(names, facets, relative(join(tree.root, directory), tarball));
  writeJson(tree, joinPathFragments(directory, 'package.json'), manifest);
  const substitutions = { ...names, packageName: standalonePackageName(names.name), tmpl: '' };
  generateFiles(tree, joinPathFragments(templates, 'standalone'), directory, substitutions);
  for (const host of facets) {
    generateFiles(tree, joinPathFragments(templates, `standalone-${host}`), directory, substitutions);
  }
}
