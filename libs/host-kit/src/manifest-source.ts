import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { err, ok, type Result } from 'neverthrow';
import { BUILTIN_PLUGINS_ROOT, DEFAULT_MANIFEST } from '@pi/builtin-plugins';
import { loadManifestFile, parseManifest, type PluginManifest } from '@pi/kernel';
import type { PluginLookup } from './plugin-package';

/** A manifest and where its plugins are found. */
export interface ManifestSource {
  readonly manifest: PluginManifest;
  readonly lookup: PluginLookup;
}

/**
 * The manifest a host runs: a file (paths in it are relative to the file; package names are looked up next to
 * the file first, then among the built-ins), or the built-in manifest. Errors are one line naming the file.
 */
export async function readManifestSource(
  file: string | undefined,
  built: Readonly<Record<string, string>> = {},
): Promise<Result<ManifestSource, string>> {
  if (file !== undefined) {
    const path = resolve(file);
    const loaded = await loadManifestFile(path);
    if (loaded.isErr()) return err(loaded.error.message);
    const folder = dirname(path);
    return ok({
      manifest: loaded.value,
      lookup: {
        baseDirectory: folder,
        packageRoots: [folder, BUILTIN_PLUGINS_ROOT],
        source: `manifest ${path}`,
        built,
      },
    });
  }
  // The built-in manifest failing would be a bug of this build.
  const parsed = parseManifest(DEFAULT_MANIFEST);
  if (parsed.isErr()) return err(`the built-in manifest is invalid: ${parsed.error.message}`);
  return ok({
    manifest: parsed.value,
    lookup: {
      baseDirectory: BUILTIN_PLUGINS_ROOT,
      packageRoots: [BUILTIN_PLUGINS_ROOT],
      source: 'the built-in manifest',
      built,
    },
  });
}

/**
 * The facet modules an app bundle carries (its `facets.json`, written by the bundler next to the app's entry), as
 * file URLs; none when the app runs from source.
 */
export async function readBundledFacets(appUrl: string): Promise<Record<string, string>> {
  let text: string;
  try {
    text = await readFile(new URL('./facets.json', appUrl), 'utf8');
  } catch {
    return {};
  }
  const map = JSON.parse(text) as Record<string, string>;
  return Object.fromEntries(Object.entries(map).map(([specifier, file]) => [specifier, new URL(file, appUrl).href]));
}
