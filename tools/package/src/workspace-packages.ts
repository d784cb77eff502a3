import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The fields of a package.json this tool reads. */
export interface PackageManifest {
  readonly name: string;
  readonly version: string;
  readonly description?: string;
  /** A subpath's target: a file, or conditions naming one (`types` for the declarations, `default` for the code). */
  readonly exports?: Readonly<Record<string, string | Readonly<Record<string, string>>>>;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly devDependencies?: Readonly<Record<string, string>>;
  readonly workspaces?: readonly string[];
  readonly engines?: { readonly node?: string };
}

export interface WorkspacePackage {
  /** Absolute path of the package's folder. */
  readonly dir: string;
  readonly manifest: PackageManifest;
}

export async function readManifest(dir: string): Promise<PackageManifest> {
  return JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as PackageManifest;
}

/** Every package of the workspace by name, from the root's `workspaces` patterns (folder names and `*`). */
export async function readWorkspacePackages(root: string): Promise<Map<string, WorkspacePackage>> {
  const patterns = (await readManifest(root)).workspaces ?? [];
  const dirs = (await Promise.all(patterns.map((pattern) => expand(root, pattern.split('/'))))).flat();
  const packages = new Map<string, WorkspacePackage>();
  for (const dir of dirs) {
    const manifest = await readManifest(dir).catch(() => undefined);
    if (manifest !== undefined) packages.set(manifest.name, { dir, manifest });
  }
  return packages;
}

async function expand(base: string, segments: readonly string[]): Promise<string[]> {
  const [segment, ...rest] = segments;
  if (segment === undefined) return [base];
  if (segment !== '*') return expand(join(base, segment), rest);
  const entries = await readdir(base, { withFileTypes: true }).catch(() => []);
  const children = entries.filter((entry) => entry.isDirectory()).map((entry) => join(base, entry.name));
  return (await Promise.all(children.map((child) => expand(child, rest)))).flat();
}

/** The package and every workspace package it depends on at run time, transitively. */
export function internalClosure(name: string, packages: ReadonlyMap<string, WorkspacePackage>): WorkspacePackage[] {
  const seen = new Map<string, WorkspacePackage>();
  const visit = (current: string): void => {
    const found = packages.get(current);
    if (found === undefined || seen.has(current)) return;
    seen.set(current, found);
    for (const dependency of Object.keys(found.manifest.dependencies ?? {})) visit(dependency);
  };
  visit(name);
  return [...seen.values()];
}
