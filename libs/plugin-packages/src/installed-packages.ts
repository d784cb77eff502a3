import { readFile } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { globalScopeFiles, projectScopeFiles, type ScopeFiles } from '@pi/host-kit';
import { prefixDependencies } from './npm-prefix';

export const RESOURCE_KINDS = ['skills', 'prompts', 'themes'] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

/** A package `pi install` put in a scope, as its package.json describes it. */
export interface InstalledPackage {
  readonly scope: ScopeFiles['scope'];
  readonly name: string;
  readonly version: string;
  /** What it was installed from, as npm recorded it. */
  readonly source: string;
  readonly directory: string;
  /**
   * The manifest references of its plugins, relative to the scope's plugins.json: its own name when the package
   * is a plugin (`pi.facets`), and `./packages/node_modules/<name>/<path>` for each folder in `pi.plugins`.
   */
  readonly plugins: readonly string[];
  /** Absolute paths of the folders (or files) its `pi` field lists per kind, inside the package only. */
  readonly resources: Readonly<Record<ResourceKind, readonly string[]>>;
}

/** Where to look: the user's config dir, and the project's directory (absent: the global scope only). */
export interface PackageScopes {
  readonly configDir: string;
  readonly project?: string | undefined;
}

export function scopeFilesOf(scopes: PackageScopes): ScopeFiles[] {
  return [
    globalScopeFiles(scopes.configDir),
    ...(scopes.project === undefined ? [] : [projectScopeFiles(scopes.project)]),
  ];
}

/** The packages installed in each scope, global first; a package whose folder is gone or unreadable is left out. */
export async function installedPackages(scopes: PackageScopes): Promise<InstalledPackage[]> {
  const all: InstalledPackage[] = [];
  for (const files of scopeFilesOf(scopes)) {
    for (const [name, source] of Object.entries(await prefixDependencies(files.packages))) {
      const described = await describePackage(files, name, source);
      if (described !== undefined) all.push(described);
    }
  }
  return all;
}

/**
 * The folders of one kind of resource that installed packages carry, global scope first: what the skills, prompt
 * templates and themes loaders add to their own folders.
 */
export async function packageResourceDirs(scopes: PackageScopes, kind: ResourceKind): Promise<string[]> {
  return (await installedPackages(scopes)).flatMap((installed) => installed.resources[kind]);
}

export async function describePackage(
  files: ScopeFiles,
  name: string,
  source: string,
): Promise<InstalledPackage | undefined> {
  const directory = join(files.packages, 'node_modules', name);
  let json: { version?: unknown; pi?: unknown };
  try {
    json = JSON.parse(await readFile(join(directory, 'package.json'), 'utf8')) as typeof json;
  } catch {
    return undefined;
  }
  const pi = typeof json.pi === 'object' && json.pi !== null ? (json.pi as Record<string, unknown>) : {};
  const inside = (path: string) => {
    const absolute = resolve(directory, path);
    const within = relative(directory, absolute);
    return within !== '' && !within.startsWith('..') && !within.startsWith(sep) ? absolute : undefined;
  };
  const listed = (key: string) =>
    (Array.isArray(pi[key]) ? (pi[key] as unknown[]) : [])
      .filter((path): path is string => typeof path === 'string')
      .map(inside)
      .filter((path): path is string => path !== undefined);
  const folder = `./packages/node_modules/${name}`;
  const plugins = [
    ...('facets' in pi ? [name] : []),
    ...listed('plugins').map((path) => `${folder}/${relative(directory, path).split(sep).join('/')}`),
  ];
  return {
    scope: files.scope,
    name,
    version: typeof json.version === 'string' ? json.version : '',
    source,
    directory,
    plugins,
    resources: { skills: listed('skills'), prompts: listed('prompts'), themes: listed('themes') },
  };
}

/** Whether a package's package.json has a `pi` field at all. */
export async function isPiPackage(directory: string): Promise<boolean> {
  try {
    const json = JSON.parse(await readFile(join(directory, 'package.json'), 'utf8')) as { pi?: unknown };
    return typeof json.pi === 'object' && json.pi !== null;
  } catch {
    return false;
  }
}
