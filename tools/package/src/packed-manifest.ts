import { INTERNAL_SCOPE } from './published-packages';
import type { PackageManifest } from './workspace-packages';

const EXACT_VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

/** The package.json of a built package: ESM, one entry with its declarations, exact dependencies. */
export interface PackedManifest {
  readonly name: string;
  readonly version: string;
  readonly description?: string;
  readonly type: 'module';
  readonly exports: { readonly '.': { readonly types: './index.d.ts'; readonly import: './index.js' } };
  readonly types: './index.d.ts';
  readonly engines: { readonly node: string };
  readonly dependencies: Readonly<Record<string, string>>;
}

/**
 * The manifest for `source` built into one bundle that imports `externals` (package names). Each external's
 * version comes from the bundled workspace packages that declare it; one that none declares, one declared at two
 * versions, a version that is not exact, or an internal package left unbundled is an error.
 */
export function packedManifest(
  source: PackageManifest,
  externals: readonly string[],
  bundled: readonly PackageManifest[],
  nodeEngine: string,
): PackedManifest {
  const dependencies: Record<string, string> = {};
  for (const name of [...new Set(externals)].sort()) {
    if (name.startsWith(INTERNAL_SCOPE)) throw new Error(`${source.name}: ${name} was left unbundled`);
    const declared = new Set(bundled.flatMap((manifest) => manifest.dependencies?.[name] ?? []));
    const [version, ...others] = declared;
    if (version === undefined) throw new Error(`${source.name}: the bundle imports ${name}, which no package declares`);
    if (others.length > 0) throw new Error(`${source.name}: ${name} is declared at ${[...declared].join(' and ')}`);
    if (!EXACT_VERSION.test(version)) throw new Error(`${source.name}: ${name}@${version} is not an exact version`);
    dependencies[name] = version;
  }
  return {
    name: source.name,
    version: source.version,
    ...(source.description === undefined ? {} : { description: source.description }),
    type: 'module',
    exports: { '.': { types: './index.d.ts', import: './index.js' } },
    types: './index.d.ts',
    engines: { node: nodeEngine },
    dependencies,
  };
}
