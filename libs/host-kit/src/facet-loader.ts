import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { resolve as resolveModule } from 'import-meta-resolve';
import { err, ok, type Result } from 'neverthrow';
import type { ManifestEntry, PluginManifest } from '@pi/kernel';
import type { Facet, HostName } from '@pi/plugin-api';
import { findPluginPackage, type PluginLookup, type PluginPackage } from './plugin-package';
import { errorText, type PluginLoadError } from './plugin-load-error';

/** One plugin's facet for this host, loaded, in manifest order. */
export interface LoadedFacet<H extends HostName> {
  readonly id: string;
  readonly config: ManifestEntry['config'];
  readonly facet: Facet<H>;
  /** The module the facet came from (a file URL). */
  readonly module: string;
}

/**
 * Per-host entry-point resolution: every manifest entry must name a plugin (checked for all of them before any
 * plugin code runs); then only this host's facet module of each plugin is imported, in manifest order. A
 * plugin without a facet for this host is skipped, and none of its modules is loaded.
 */
export async function loadFacets<H extends HostName>(
  manifest: PluginManifest,
  host: H,
  lookup: PluginLookup,
): Promise<Result<LoadedFacet<H>[], PluginLoadError>> {
  const packages: Array<{ entry: ManifestEntry; plugin: PluginPackage }> = [];
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
  const loaded: LoadedFacet<H>[] = [];
  for (const { entry, plugin } of packages) {
    const specifier = plugin.metadata.facets[host];
    if (specifier === undefined) continue;
    const built = lookup.built?.[specifier];
    // A bundled program (its lookup names built facets) loading a plugin it does not carry.
    if (built === undefined && Object.keys(lookup.built ?? {}).length > 0) await enableTypeScript();
    const facet = await importFacet(plugin, host, built ?? specifier, lookup.source);
    if (facet.isErr()) return err(facet.error);
    loaded.push({ id: plugin.id, config: entry.config, ...facet.value });
  }
  return ok(loaded);
}

async function importFacet<H extends HostName>(
  plugin: PluginPackage,
  host: H,
  specifier: string,
  source: string,
): Promise<Result<{ facet: Facet<H>; module: string }, PluginLoadError>> {
  const fail = (code: PluginLoadError['code'], why: string) =>
    err({ code, reference: plugin.reference, message: `Plugin "${plugin.id}" in ${source}: ${why}` });
  let url: string;
  try {
    url = specifier.startsWith('file:')
      ? specifier
      : specifier.startsWith('.')
        ? pathToFileURL(join(plugin.directory, specifier)).href
        : resolveModule(specifier, pathToFileURL(join(plugin.directory, 'package.json')).href);
  } catch (thrown) {
    return fail('missing_module', `its ${host} facet module "${specifier}" cannot be found (${errorText(thrown)})`);
  }
  let module: { default?: unknown };
  try {
    module = (await import(url)) as { default?: unknown };
  } catch (thrown) {
    if ((thrown as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND') {
      return fail('missing_module', `cannot find its ${host} facet module "${specifier}" (${errorText(thrown)})`);
    }
    return fail('load_failed', `loading its ${host} facet module "${specifier}" failed: ${errorText(thrown)}`);
  }
  const facet = facetOf(module.default, host);
  if (facet === undefined) {
    return fail(
      'invalid_facet',
      `its ${host} facet module "${specifier}" must export default a facet function or a definePlugin({ ${host} }) bundle`,
    );
  }
  return ok({ facet, module: url });
}

/**
 * Lets this process import TypeScript, once: what a program running from its bundle does before loading a plugin
 * its bundle does not carry, since such a plugin may be TypeScript or import TypeScript (a workspace's sources).
 * Only then, because registering tsx costs a bundled program's start as much again.
 */
function enableTypeScript(): Promise<void> {
  return (typeScriptLoading ??= import('tsx/esm/api').then(({ register }) => void register()));
}

let typeScriptLoading: Promise<void> | undefined;

/** A facet module's default export is the facet itself, or a definePlugin bundle holding one per host. */
function facetOf<H extends HostName>(exported: unknown, host: H): Facet<H> | undefined {
  if (typeof exported === 'function') return exported as Facet<H>;
  if (typeof exported === 'object' && exported !== null) {
    const candidate = (exported as Record<string, unknown>)[host];
    if (typeof candidate === 'function') return candidate as Facet<H>;
  }
  return undefined;
}
