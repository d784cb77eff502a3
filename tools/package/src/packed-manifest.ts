import { INTERNAL_SCOPE } from './published-packages';
import type { PackageManifest } from './workspace-packages';

const EXACT_VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

/**
 * Packages whose one copy the user's code shares with the package (a plugin's zod schemas, a stock tRPC client's
 * router type): peer dependencies, so npm installs them once beside the package.
 */
export const PEER_PACKAGES: ReadonlySet<string> = new Set(['zod', '@trpc/client', '@trpc/server']);

/** The entry of a built package: declarations, then the ES module for `import` and (Node >= 20.19) `require`. */
export interface PackedEntry {
  readonly types: './index.d.ts';
  readonly import: './index.js';
  readonly default: './index.js';
}

/** The package.json of a built package: ESM, one entry with its declarations, caret ranges of what it was built with. */
export interface PackedManifest {
  readonly name: string;
  readonly version: string;
  readonly description?: string;
  readonly type: 'module';
  readonly exports: { readonly '.': PackedEntry };
  readonly types: './index.d.ts';
  readonly engines: { readonly node: string };
  readonly dependencies: Readonly<Record<string, string>>;
  readonly peerDependencies: Readonly<Record<string, string>>;
  /** The TypeScript versions the declarations were type-checked with (the workspace's compilers). */
  readonly checkedWith: { readonly typescript: readonly string[] };
}

/** What a build knows about the workspace beyond the package itself. */
export interface PackedManifestOptions {
  readonly nodeEngine: string;
  readonly typescript: readonly string[];
}

/**
 * The manifest for `source` built into one bundle that imports `externals` (package names). Each external's
 * version comes from the bundled workspace packages that declare it, exactly, and is published as a caret range
 * from it (a peer dependency for `PEER_PACKAGES`); one that none declares, one declared at two versions, a version
 * that is not exact, or an internal package left unbundled is an error.
 */
export function packedManifest(
  source: PackageManifest,
  externals: readonly string[],
  bundled: readonly PackageManifest[],
  options: PackedManifestOptions,
): PackedManifest {
  const dependencies: Record<string, string> = {};
  const peerDependencies: Record<string, string> = {};
  for (const name of [...new Set(externals)].sort()) {
    const version = declaredVersion(source.name, name, bundled);
    (PEER_PACKAGES.has(name) ? peerDependencies : dependencies)[name] = `^${version}`;
  }
  return {
    name: source.name,
    version: source.version,
    ...(source.description === undefined ? {} : { description: source.description }),
    type: 'module',
    exports: { '.': { types: './index.d.ts', import: './index.js', default: './index.js' } },
    types: './index.d.ts',
    engines: { node: options.nodeEngine },
    dependencies,
    peerDependencies,
    checkedWith: { typescript: [...options.typescript] },
  };
}

/** The exact version of `name` that the bundled workspace packages declare; an error unless exactly one does. */
function declaredVersion(sourceName: string, name: string, bundled: readonly PackageManifest[]): string {
  if (name.startsWith(INTERNAL_SCOPE)) throw new Error(`${sourceName}: ${name} was left unbundled`);
  const declared = new Set(bundled.flatMap((manifest) => manifest.dependencies?.[name] ?? []));
  const [version, ...others] = declared;
  if (version === undefined) throw new Error(`${sourceName}: the bundle imports ${name}, which no package declares`);
  if (others.length > 0) throw new Error(`${sourceName}: ${name} is declared at ${[...declared].join(' and ')}`);
  if (!EXACT_VERSION.test(version)) throw new Error(`${sourceName}: ${name}@${version} is not an exact version`);
  return version;
}

/**
 * The package.json of a program: executable bundles with everything inside them but the few packages they load
 * from node_modules (blessed, the SQLite driver), pinned to the versions the bundles were built and tested with.
 */
export interface PackedProgramManifest {
  readonly name: string;
  readonly version: string;
  readonly description?: string;
  readonly type: 'module';
  readonly bin: Readonly<Record<string, string>>;
  readonly engines: { readonly node: string };
  /** Absent when the bundles import nothing from node_modules. */
  readonly dependencies?: Readonly<Record<string, string>>;
}

/**
 * The manifest for `source` built as programs: `bin` maps each command to its bundle in the package; `externals`
 * are the packages the bundles import at run time, each at the exact version the `bundled` workspace packages
 * declare (a program is not built against a range; the same errors as `packedManifest`'s otherwise).
 */
export function packedProgramManifest(
  source: PackageManifest,
  bin: Readonly<Record<string, string>>,
  nodeEngine: string,
  externals: readonly string[] = [],
  bundled: readonly PackageManifest[] = [],
): PackedProgramManifest {
  const names = [...new Set(externals)].sort();
  const dependencies = Object.fromEntries(names.map((name) => [name, declaredVersion(source.name, name, bundled)]));
  return {
    name: source.name,
    version: source.version,
    ...(source.description === undefined ? {} : { description: source.description }),
    type: 'module',
    bin: { ...bin },
    engines: { node: nodeEngine },
    ...(names.length === 0 ? {} : { dependencies }),
  };
}
