import { PLUGIN_API_VERSION, type PluginMetadata } from '@pi/plugin-api';
import { type HostFacet, type PluginProjectKind, pluginProjectTags } from './facets';
import { type PluginNames, projectPackageName } from './names';

/** The version every workspace package carries; workspace dependencies are pinned to it exactly. */
export const WORKSPACE_VERSION = '0.0.0';

/** zod as the workspace pins it (versions.test.ts checks that every package, @pi/plugin-api first, agrees). */
export const ZOD_VERSION = '4.6.7';

/** The packages each kind of project imports, besides its own plugin's contract; tests use the host test kits. */
const imports: Record<PluginProjectKind, { readonly runtime: readonly string[]; readonly tests: readonly string[] }> = {
  contract: { runtime: ['@pi/plugin-api', 'zod'], tests: [] },
  session: { runtime: ['@pi/plugin-api'], tests: ['@pi/host-session', '@pi/test-support'] },
  tui: { runtime: ['@pi/plugin-api'], tests: ['@pi/host-tui', '@pi/remote', '@pi/test-support'] },
  coordinator: { runtime: ['@pi/plugin-api'], tests: ['@pi/host-coordinator'] },
};

/**
 * The package.json of one project of the plugin. The contract is the plugin's identity package: its name is the
 * plugin id and its `pi` field tells every host which package holds that host's facet, so a manifest listing
 * the id is all it takes to load the plugin.
 */
export function packageManifest(
  names: PluginNames,
  kind: PluginProjectKind,
  facets: readonly HostFacet[],
): Record<string, unknown> {
  const { runtime, tests } = imports[kind];
  const contract = kind === 'contract' ? [] : [names.pluginId];
  const devDependencies = pinned(tests);
  return {
    name: projectPackageName(names.name, kind),
    version: WORKSPACE_VERSION,
    private: true,
    type: 'module',
    exports:
      kind === 'contract' ? { '.': './src/index.ts', './package.json': './package.json' } : { '.': './src/index.ts' },
    dependencies: pinned([...contract, ...runtime]),
    ...(tests.length === 0 ? {} : { devDependencies }),
    nx: { tags: [...pluginProjectTags[kind]] },
    ...(kind === 'contract' ? { pi: pluginMetadata(names, facets) } : {}),
  };
}

function pluginMetadata(names: PluginNames, facets: readonly HostFacet[]): PluginMetadata {
  return {
    apiVersion: PLUGIN_API_VERSION,
    description: `The ${names.name} plugin (generated; say here what it adds)`,
    facets: Object.fromEntries(facets.map((host) => [host, projectPackageName(names.name, host)])),
  };
}

/** Workspace packages at exactly 0.0.0, zod at the workspace's version; sorted, as npm writes them. */
function pinned(packages: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    [...packages].sort().map((name) => [name, name === 'zod' ? ZOD_VERSION : WORKSPACE_VERSION] as const),
  );
}
