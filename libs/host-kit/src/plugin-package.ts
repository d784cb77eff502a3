import { access, readdir, readFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { err, ok, type Result } from 'neverthrow';
import { checkApiVersion, pluginMetadataSchema, type PluginMetadata } from '@pi/plugin-api';
import { errorText, type PluginLoadError } from './plugin-load-error';

/** A plugin found on disk: its id, its package folder and the metadata that names its facet modules. */
export interface PluginPackage {
  readonly id: string;
  readonly reference: string;
  readonly directory: string;
  readonly metadata: PluginMetadata;
}

/** Where a manifest's references are resolved from, and how errors name the manifest. */
export interface PluginLookup {
  /** Relative paths resolve against this folder (the manifest file's folder). */
  readonly baseDirectory: string;
  /** Package names are looked up in `node_modules` of these folders and their parents, in order. */
  readonly packageRoots: readonly string[];
  /** "manifest /path/to/manifest.json" or "the built-in manifest". */
  readonly source: string;
  /** Facet modules an app bundle carries, by the specifier plugin metadata names (file URLs). */
  readonly built?: Readonly<Record<string, string>>;
}

const isPath = (reference: string) =>
  reference.startsWith('./') || reference.startsWith('../') || isAbsolute(reference);

/**
 * Finds the package a manifest entry names — by path (`./plugins/my-thing`), by package name, or by the `pi.id` of
 * an installed package (`tally` for `pi-plugin-tally`) when no package has that name — and reads its `pi` metadata.
 * Nothing of the plugin's code is loaded here.
 */
export async function findPluginPackage(
  reference: string,
  lookup: PluginLookup,
): Promise<Result<PluginPackage, PluginLoadError>> {
  const fail = (code: PluginLoadError['code'], message: string) => err({ code, reference, message });
  const directory = isPath(reference)
    ? resolve(lookup.baseDirectory, reference)
    : ((await findInNodeModules(reference, lookup.packageRoots)) ??
      (await findByPluginId(reference, lookup.packageRoots)));
  if (directory === undefined || !(await exists(join(directory, 'package.json')))) {
    const where = isPath(reference) ? `no package.json in ${directory}` : 'no installed package has that name or pi.id';
    return fail('unknown_plugin', `Unknown plugin "${reference}" in ${lookup.source}: ${where}`);
  }
  let manifest: { name?: unknown; pi?: unknown };
  try {
    manifest = JSON.parse(await readFile(join(directory, 'package.json'), 'utf8')) as typeof manifest;
  } catch (thrown) {
    return fail(
      'not_a_plugin',
      `Plugin "${reference}" in ${lookup.source}: unreadable package.json (${errorText(thrown)})`,
    );
  }
  if (manifest.pi === undefined) {
    return fail(
      'not_a_plugin',
      `"${reference}" in ${lookup.source} is not a pi plugin: its package.json has no "pi" field`,
    );
  }
  const parsed = pluginMetadataSchema.safeParse(withoutResources(manifest.pi));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = ['pi', ...(issue?.path ?? [])].join('.');
    return fail(
      'invalid_metadata',
      `Plugin "${reference}" in ${lookup.source}: ${path} ${issue?.message ?? 'is invalid'}`,
    );
  }
  const id = parsed.data.id ?? (typeof manifest.name === 'string' ? manifest.name : undefined);
  if (id === undefined)
    return fail(
      'invalid_metadata',
      `Plugin "${reference}" in ${lookup.source}: it has neither pi.id nor a package name`,
    );
  const version = checkApiVersion(parsed.data.apiVersion);
  if (version.isErr())
    return fail('api_mismatch', `Plugin "${id}" in ${lookup.source} cannot be loaded: ${version.error}`);
  return ok({ id, reference, directory, metadata: parsed.data });
}

/**
 * A package's `pi` field may also carry the resources of a pi package (`plugins`, `skills`, `prompts`, `themes`;
 * see `@pi/plugin-packages`), which are not the plugin's metadata.
 */
function withoutResources(pi: unknown): unknown {
  if (typeof pi !== 'object' || pi === null || Array.isArray(pi)) return pi;
  const {
    plugins: _plugins,
    skills: _skills,
    prompts: _prompts,
    themes: _themes,
    ...metadata
  } = pi as Record<string, unknown>;
  return metadata;
}

/** Node's own lookup for a package folder: `node_modules/<name>` in each root and every parent of it. */
async function findInNodeModules(name: string, roots: readonly string[]): Promise<string | undefined> {
  if (!/^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i.test(name)) return undefined;
  for (const root of roots) {
    for (let folder = resolve(root); ; folder = dirname(folder)) {
      const candidate = join(folder, 'node_modules', name);
      if (await exists(join(candidate, 'package.json'))) return candidate;
      if (dirname(folder) === folder) break;
    }
  }
  return undefined;
}

/**
 * The installed package whose `pi.id` is `id`, in the first root whose own `node_modules` has one (sorted by name):
 * a plugin named by its id once its package is installed, whatever the package is called. Only each root's own
 * folder is searched, not its parents' as for a package name: there a miss would read every package.json of a
 * project's (or the workspace's) whole dependency tree.
 */
async function findByPluginId(id: string, roots: readonly string[]): Promise<string | undefined> {
  for (const root of roots) {
    const found = await packageWithPluginId(join(resolve(root), 'node_modules'), id);
    if (found !== undefined) return found;
  }
  return undefined;
}

async function packageWithPluginId(modules: string, id: string): Promise<string | undefined> {
  const names = await readdir(modules).catch(() => [] as string[]);
  const folders = await Promise.all(
    names
      .filter((name) => !name.startsWith('.'))
      .sort()
      .map(async (name) =>
        name.startsWith('@')
          ? (await readdir(join(modules, name)).catch(() => [] as string[]))
              .sort()
              .map((inner) => join(modules, name, inner))
          : [join(modules, name)],
      ),
  );
  const ids = await Promise.all(
    folders.flat().map((folder) =>
      readFile(join(folder, 'package.json'), 'utf8').then(
        (text) => (JSON.parse(text) as { pi?: { id?: unknown } }).pi?.id,
        () => undefined,
      ),
    ),
  );
  const index = ids.indexOf(id);
  return index === -1 ? undefined : folders.flat()[index];
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
