import { dirname, resolve } from 'node:path';
import { err, ok, type Result } from 'neverthrow';
import { BUILTIN_PLUGINS_ROOT } from '@pi/builtin-plugins';
import { findPluginPackage, globalScopeFiles, projectScopeFiles, type ScopeFiles } from '@pi/host-kit';
import { describePackage, isPiPackage, type InstalledPackage } from './installed-packages';
import { ensurePrefix, prefixDependencies, runNpm } from './npm-prefix';
import type { PackageError } from './package-error';
import { parsePackageSource } from './package-source';
import { entryId, readScopeManifest, writeScopeManifest } from './scope-manifest';

export interface PackageRequest {
  /** `global`: the user's config dir; `project` (`pi install -l`): the project's `.pi/`. */
  readonly scope: 'global' | 'project';
  readonly configDir: string;
  /** The project directory, and what relative paths of a source are resolved against. */
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
}

export function scopeFilesFor(request: Pick<PackageRequest, 'scope' | 'configDir' | 'cwd'>): ScopeFiles {
  return request.scope === 'global' ? globalScopeFiles(request.configDir) : projectScopeFiles(request.cwd);
}

/**
 * `pi install`: installs a package (npm name, path or git URL) into the scope's npm prefix and adds its plugins
 * to the scope's plugins.json, after checking each is a plugin this pi can load. A package that is no pi package,
 * or whose plugin cannot load, is uninstalled again and the manifest is left as it was.
 */
export async function installPackage(
  text: string,
  request: PackageRequest,
): Promise<Result<InstalledPackage, PackageError>> {
  const source = parsePackageSource(text, request.cwd, request.env['HOME']);
  if (source.isErr()) return err(source.error);
  const files = scopeFilesFor(request);
  const entries = await readScopeManifest(files.manifest);
  if (entries.isErr()) return err(entries.error);
  await ensurePrefix(files.packages);
  const before = await prefixDependencies(files.packages);
  const installed = await runNpm(files.packages, ['install', '--save', source.value.spec], request.env);
  if (installed.isErr()) return err(installed.error);
  const after = await prefixDependencies(files.packages);
  const name =
    Object.keys(after).find((key) => after[key] !== before[key]) ??
    sameSource(after, source.value.spec, files.packages);
  if (name === undefined) {
    return err({ code: 'npm_failed', message: `npm installed ${source.value.spec} but recorded no package for it` });
  }
  const undo = async (error: PackageError) => {
    if (before[name] === undefined) await runNpm(files.packages, ['uninstall', '--save', name], request.env);
    return err(error);
  };
  const described = await describePackage(files, name, after[name] ?? source.value.spec);
  if (described === undefined || !(await isPiPackage(described.directory))) {
    return undo({
      code: 'not_a_pi_package',
      message: `${name} is not a pi package: its package.json has no "pi" field`,
    });
  }
  const lookup = {
    baseDirectory: dirname(files.manifest),
    packageRoots: [files.packages, BUILTIN_PLUGINS_ROOT],
    source: `package ${name}`,
  };
  for (const reference of described.plugins) {
    const found = await findPluginPackage(reference, lookup);
    if (found.isErr()) return undo({ code: 'invalid_plugin', message: found.error.message });
  }
  const known = new Set(entries.value.map(entryId));
  const added = described.plugins.filter((reference) => !known.has(reference));
  if (added.length > 0) await writeScopeManifest(files.manifest, [...entries.value, ...added]);
  return ok(described);
}

/**
 * A reinstall from the same source changes nothing npm records: the package is the one installed from it (npm
 * records a path as `file:` relative to the prefix).
 */
function sameSource(dependencies: Record<string, string>, spec: string, prefix: string): string | undefined {
  const recorded = (value: string) => (value.startsWith('file:') ? resolve(prefix, value.slice(5)) : value);
  return Object.keys(dependencies).find((key) => recorded(dependencies[key] ?? '') === spec);
}

/**
 * `pi remove`: takes the package's plugins out of the scope's plugins.json (its name, and paths into its folder),
 * then uninstalls it from the scope's prefix. A name the scope has not installed is an error naming the scope.
 */
export async function removePackage(
  name: string,
  request: PackageRequest,
): Promise<Result<{ readonly name: string; readonly plugins: readonly string[] }, PackageError>> {
  const files = scopeFilesFor(request);
  const dependencies = await prefixDependencies(files.packages);
  if (dependencies[name] === undefined) {
    const installed = Object.keys(dependencies);
    const listing = installed.length === 0 ? 'none is installed there' : `installed: ${installed.join(', ')}`;
    return err({ code: 'not_installed', message: `${name} is not installed in ${files.packages} (${listing})` });
  }
  const entries = await readScopeManifest(files.manifest);
  if (entries.isErr()) return err(entries.error);
  const folder = `./packages/node_modules/${name}/`;
  const ours = (reference: string) => reference === name || reference.startsWith(folder);
  const removed = entries.value.map(entryId).filter(ours);
  if (removed.length > 0)
    await writeScopeManifest(
      files.manifest,
      entries.value.filter((entry) => !ours(entryId(entry))),
    );
  const uninstalled = await runNpm(files.packages, ['uninstall', '--save', name], request.env);
  if (uninstalled.isErr()) return err(uninstalled.error);
  return ok({ name, plugins: removed });
}
