import { isBuiltin } from 'node:module';
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { INTERNAL_SCOPE, packageNameOf } from './published-packages';

/** Leaves every bare import outside the internal scope to the installed package, and records it. */
function externalPackages(found: Set<string>): Plugin {
  return {
    name: 'external-packages',
    setup(builder) {
      builder.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.kind === 'entry-point' || args.path.startsWith(INTERNAL_SCOPE)) return undefined;
        if (!isBuiltin(args.path)) found.add(packageNameOf(args.path));
        return { path: args.path, external: true };
      });
    },
  };
}

/** What every bundle the packer makes is: `entry` and what it imports in one ES module for Node `nodeTarget`. */
export function nodeModuleBundle(entry: string, outfile: string, nodeTarget: string): BuildOptions {
  return {
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: nodeTarget,
    // Bundling renames clashing top-level names; keep `.name` of classes and functions as written.
    keepNames: true,
    logLevel: 'silent',
  };
}

/**
 * Bundles `entry` and the internal libraries it imports into one ES module for Node. Returns the names of the
 * packages the bundle still imports.
 */
export async function bundleJavaScript(entry: string, outfile: string, nodeTarget: string): Promise<string[]> {
  const found = new Set<string>();
  await build({ ...nodeModuleBundle(entry, outfile, nodeTarget), plugins: [externalPackages(found)] });
  return [...found].sort();
}
