import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { resolve as resolveModule } from 'import-meta-resolve';
import { err, ok, type Result } from 'neverthrow';
import type { ManifestEntry, PluginManifest } from '@pi/kernel';
import { HOST_NAMES, type Facet, type HostName } from '@pi/plugin-api';
import { checkSharedModule } from './multi-tier-check';
import { versionedModuleUrl } from './module-generations';
import { findPluginPackage, type PluginLookup, type PluginPackage } from './plugin-package';
import { errorText, type PluginLoadError } from './plugin-load-error';

/** One plugin's facet for this host, loaded, in manifest order. */
export interface LoadedFacet<H extends HostName> {
  readonly id: string;
  readonly config: ManifestEntry['config'];
  readonly facet: Facet<H>;
  /** The module the facet came from (a file URL). */
  readonly module: string;
  /** The plugin API its package says it was built for (`pi.apiVersion`); absent for a facet given without one. */
  readonly apiVersion?: string;
}

/** A manifest entry and the plugin package it names, found on disk but not loaded. */
export interface FoundPlugin {
  readonly entry: ManifestEntry;
  readonly plugin: PluginPackage;
}

/**
 * Per-host entry-point resolution: every manifest entry must name a plugin (checked for all of them before any
 * plugin code runs); then only this host's facet module of each plugin is imported, in manifest order. A
 * plugin without a facet for this host is skipped, and none of its modules is loaded. A reload passes its module
 * `generation`: a facet the app bundle does not carry is then imported afresh, with its package's own modules.
 */
export async function loadFacets<H extends HostName>(
  manifest: PluginManifest,
  host: H,
  lookup: PluginLookup,
  generation?: number,
): Promise<Result<LoadedFacet<H>[], PluginLoadError>> {
  const found = await findPlugins(manifest, lookup);
  if (found.isErr()) return err(found.error);
  return importFacets(found.value, host, lookup, generation);
}

/** Finds the package of every entry (no plugin code runs); a plugin named twice is an error naming both. */
export async function findPlugins(
  manifest: PluginManifest,
  lookup: PluginLookup,
): Promise<Result<FoundPlugin[], PluginLoadError>> {
  const packages: FoundPlugin[] = [];
  const seen = new Map<string, string>();
  for (const entry of manifest.entries) {
    const found = await findPluginPackage(entry.id, lookup);
    if (found.isErr()) return err(found.error);
    const earlier = seen.get(found.value.id);
    if (earlier !== undefined) {
      return err({
        code: 'duplicate_plugin',
        reference: entry.id,
        message: `Plugin "${found.value.id}" appears twice in ${lookup.source} (as "${earlier}" and "${entry.id}")`,
      });
    }
    seen.set(found.value.id, entry.id);
    packages.push({ entry, plugin: found.value });
  }
  return ok(packages);
}

/**
 * Imports this host's facet of each found plugin, in order. A module that serves two or more hosts is first
 * checked for module-level mutable state (see `checkSharedModule`) and refused with its file and line if it has any.
 */
export async function importFacets<H extends HostName>(
  plugins: readonly FoundPlugin[],
  host: H,
  lookup: PluginLookup,
  generation?: number,
): Promise<Result<LoadedFacet<H>[], PluginLoadError>> {
  const loaded: LoadedFacet<H>[] = [];
  for (const { entry, plugin } of plugins) {
    const specifier = plugin.metadata.facets[host];
    if (specifier === undefined) continue;
    const built = lookup.built?.[specifier];
    // A bundled program (its lookup names built facets) loading a plugin it does not carry.
    const typeScript =
      built === undefined && Object.keys(lookup.built ?? {}).length > 0 ? await enableTypeScript() : true;
    const url = built ?? resolveFacet(plugin, specifier);
    const fail = (code: PluginLoadError['code'], why: string, cause?: unknown) =>
      err({
        code,
        reference: plugin.reference,
        message: `Plugin "${plugin.id}" in ${lookup.source}: ${why}`,
        ...(cause === undefined ? {} : { cause }),
      });
    if (url instanceof Error)
      return fail('missing_module', `its ${host} facet module "${specifier}" cannot be found (${url.message})`);
    if (built === undefined) {
      const sharing = hostsSharing(plugin, url);
      if (sharing.length >= 2) {
        const checked = await checkSharedModule(url, sharing);
        if (checked.isErr()) return fail('multi_tier_state', checked.error);
      }
    }
    // A reload's generation imports the plugin's own modules afresh; what the app bundle carries stays as it is.
    const fresh = built === undefined && url.startsWith('file:') ? generation : undefined;
    const facet = await importFacet(host, fresh === undefined ? url : await versionedModuleUrl(url, fresh), specifier);
    if (facet.isErr()) {
      const why = typeScript || !/\.[cm]?tsx?$/.test(url) ? facet.error.why : `${facet.error.why} (${NO_TYPESCRIPT})`;
      return fail(facet.error.code, why, facet.error.cause);
    }
    const { apiVersion } = plugin.metadata;
    loaded.push({ id: plugin.id, config: entry.config, facet: facet.value, module: url, apiVersion });
  }
  return ok(loaded);
}

/** A facet module's file URL: a `file:` URL as is, a relative path from the package folder, else Node's resolution. */
function resolveFacet(plugin: PluginPackage, specifier: string): string | Error {
  try {
    return specifier.startsWith('file:')
      ? specifier
      : specifier.startsWith('.')
        ? pathToFileURL(join(plugin.directory, specifier)).href
        : resolveModule(specifier, pathToFileURL(join(plugin.directory, 'package.json')).href);
  } catch (thrown) {
    return new Error(errorText(thrown));
  }
}

/** The hosts whose facet is the module at `url` (two or more: one file imported into several processes). */
function hostsSharing(plugin: PluginPackage, url: string): HostName[] {
  return HOST_NAMES.filter((host) => {
    const specifier = plugin.metadata.facets[host];
    return specifier !== undefined && resolveFacet(plugin, specifier) === url;
  });
}

async function importFacet<H extends HostName>(
  host: H,
  url: string,
  specifier: string,
): Promise<Result<Facet<H>, { code: PluginLoadError['code']; why: string; cause?: unknown }>> {
  let module: { default?: unknown };
  try {
    module = (await import(url)) as { default?: unknown };
  } catch (thrown) {
    if ((thrown as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND') {
      return err({
        code: 'missing_module',
        why: `cannot find its ${host} facet module "${specifier}" (${errorText(thrown)})`,
      });
    }
    return err({
      code: 'load_failed',
      why: `loading its ${host} facet module "${specifier}" failed: ${errorText(thrown)}`,
      cause: thrown,
    });
  }
  const facet = facetOf(module.default, host);
  if (facet === undefined) {
    return err({
      code: 'invalid_facet',
      why: `its ${host} facet module "${specifier}" must export default a facet function or a definePlugin({ ${host} }) bundle`,
    });
  }
  return ok(facet);
}

/**
 * Lets this process import TypeScript, once: what a program running from its bundle does before loading a plugin
 * its bundle does not carry, since such a plugin may be TypeScript or import TypeScript (a workspace's sources).
 * Only then, because registering tsx costs a bundled program's start as much again. A program installed without
 * tsx beside it (the packed `pi`) loads JavaScript plugins as they are: false then.
 */
function enableTypeScript(): Promise<boolean> {
  return (typeScriptLoading ??= import('tsx/esm/api').then(
    ({ register }) => {
      register();
      return true;
    },
    () => false,
  ));
}

let typeScriptLoading: Promise<boolean> | undefined;

const NO_TYPESCRIPT =
  'this pi runs without tsx, so it imports JavaScript only: compile the plugin, or install tsx beside pi (npm install -g tsx)';

/** A facet module's default export is the facet itself, or a definePlugin bundle holding one per host. */
function facetOf<H extends HostName>(exported: unknown, host: H): Facet<H> | undefined {
  if (typeof exported === 'function') return exported as Facet<H>;
  if (typeof exported === 'object' && exported !== null) {
    const candidate = (exported as Record<string, unknown>)[host];
    if (typeof candidate === 'function') return candidate as Facet<H>;
  }
  return undefined;
}
