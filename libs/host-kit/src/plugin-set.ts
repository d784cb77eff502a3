import { access } from 'node:fs/promises';
import { dirname } from 'node:path';
import { err, ok, type Result } from 'neverthrow';
import { BUILTIN_PLUGINS_ROOT } from '@pi/builtin-plugins';
import { loadManifestFile } from '@pi/kernel';
import type { HostName } from '@pi/plugin-api';
import { failureText } from './debug-detail';
import { findPlugins, importFacets, type FoundPlugin, type LoadedFacet } from './facet-loader';
import { readManifestSource } from './manifest-source';
import type { PluginLookup } from './plugin-package';
import { globalScopeFiles, projectScopeFiles, type PluginScope, type ScopeFiles } from './plugin-scopes';

/** What a host asks for: its plugin set in a directory. */
export interface PluginSetRequest<H extends HostName> {
  readonly host: H;
  /** The user's config dir (global plugins: `<configDir>/plugins.json`). */
  readonly configDir: string;
  /** The project directory (project plugins: `<project>/.pi/plugins.json`); none for the coordinator. */
  readonly project?: string | undefined;
  /** `--manifest FILE`: used instead of the built-in manifest. */
  readonly manifestFile?: string | undefined;
  /** Facet modules an app bundle carries (`readBundledFacets`). */
  readonly built?: Readonly<Record<string, string>>;
  /** A reload's module generation: the plugins' own modules are imported afresh (see `versionedModuleUrl`). */
  readonly generation?: number;
  /**
   * The host's environment: with `PI_DEBUG=1` a facet module that threw while imported is told with its stack and
   * causes under its line (see `failureText`), in the error and in `problems`.
   */
  readonly env?: NodeJS.ProcessEnv;
}

/** One scope of the set as it was read: its plugin ids in order (all of them, with or without a facet here). */
export interface ScopeReport {
  readonly scope: PluginScope;
  /** The manifest file, or `the built-in manifest`. */
  readonly source: string;
  readonly plugins: readonly string[];
}

export interface PluginSet<H extends HostName> {
  /** This host's facets, in load order: base, global, project. */
  readonly facets: readonly LoadedFacet<H>[];
  /** The scopes that loaded. */
  readonly scopes: readonly ScopeReport[];
  /** One line per scope left out (bad JSON, unknown plugin, refused module…) or entry skipped; each names its file. */
  readonly problems: readonly string[];
}

interface Section {
  readonly scope: PluginScope;
  readonly source: string;
  readonly lookup: PluginLookup;
  readonly plugins: readonly FoundPlugin[];
}

/**
 * The plugin set of one host in one directory, what a host loads at start and again on /reload: the base
 * manifest (built-in, or `--manifest` instead), then the global scope, then the project's (never for the
 * coordinator: project code does not run in the daemon). A base that fails is an error; a scope that fails —
 * its file unreadable or invalid, a plugin unknown, a facet that cannot load or is refused — is left out whole
 * and reported in `problems`, and the rest loads. A plugin an earlier scope already has is skipped, reported.
 */
export async function resolvePluginSet<H extends HostName>(
  request: PluginSetRequest<H>,
): Promise<Result<PluginSet<H>, string>> {
  const built = request.built ?? {};
  const base = await readManifestSource(request.manifestFile, built);
  if (base.isErr()) return err(base.error);
  const baseFound = await findPlugins(base.value.manifest, base.value.lookup);
  if (baseFound.isErr()) return err(baseFound.error.message);
  const sections: Section[] = [
    {
      scope: request.manifestFile === undefined ? 'builtin' : 'manifest',
      source: request.manifestFile === undefined ? 'the built-in manifest' : base.value.lookup.source,
      lookup: base.value.lookup,
      plugins: baseFound.value,
    },
  ];
  const problems: string[] = [];
  const scopes = [globalScopeFiles(request.configDir)];
  if (request.project !== undefined && request.host !== 'coordinator') scopes.push(projectScopeFiles(request.project));
  for (const files of scopes) {
    const section = await readScope(files, built, sections, problems);
    if (section !== undefined) sections.push(section);
  }

  const facets: LoadedFacet<H>[] = [];
  const reports: ScopeReport[] = [];
  for (const section of sections) {
    const loaded = await importFacets(section.plugins, request.host, section.lookup, request.generation);
    if (loaded.isErr()) {
      const message = failureText(loaded.error.message, loaded.error.cause, request.env ?? {});
      if (section.scope === 'builtin' || section.scope === 'manifest') return err(message);
      const [line, ...detail] = message.split('\n');
      problems.push([`${line} (the ${section.scope} plugins were not loaded)`, ...detail].join('\n'));
      continue;
    }
    facets.push(...loaded.value);
    reports.push({ scope: section.scope, source: section.source, plugins: section.plugins.map((p) => p.plugin.id) });
  }
  return ok({ facets, scopes: reports, problems });
}

/**
 * The plugin set read again for a reload (with the request's `generation`). A scope left out at start may stay out,
 * but a problem the start did not have (a plugin that no longer loads) fails the reload, so the host keeps its
 * running set instead of going on without that plugin.
 */
export async function reloadPluginSet<H extends HostName>(
  request: PluginSetRequest<H>,
  startProblems: readonly string[],
): Promise<Result<PluginSet<H>, string>> {
  const set = await resolvePluginSet(request);
  if (set.isErr()) return set;
  const known = new Set(startProblems);
  const fresh = set.value.problems.filter((problem) => !known.has(problem));
  return fresh.length > 0 ? err(fresh.join('; ')) : set;
}

/** One user scope's plugins, found but not loaded; undefined when it has no manifest or is left out. */
async function readScope(
  files: ScopeFiles,
  built: Readonly<Record<string, string>>,
  earlier: readonly Section[],
  problems: string[],
): Promise<Section | undefined> {
  if (!(await exists(files.manifest))) return undefined;
  const manifest = await loadManifestFile(files.manifest);
  if (manifest.isErr()) {
    problems.push(`${manifest.error.message} (the ${files.scope} plugins were not loaded)`);
    return undefined;
  }
  const lookup: PluginLookup = {
    baseDirectory: dirname(files.manifest),
    packageRoots: [files.packages, dirname(files.manifest), BUILTIN_PLUGINS_ROOT],
    source: `manifest ${files.manifest}`,
    built,
  };
  const found = await findPlugins(manifest.value, lookup);
  if (found.isErr()) {
    problems.push(`${found.error.message} (the ${files.scope} plugins were not loaded)`);
    return undefined;
  }
  const loadedBefore = new Map(earlier.flatMap((section) => section.plugins.map((p) => [p.plugin.id, section.source])));
  const plugins = found.value.filter(({ plugin }) => {
    const where = loadedBefore.get(plugin.id);
    if (where !== undefined)
      problems.push(`Plugin "${plugin.id}" in manifest ${files.manifest} is skipped: ${where} already loads it`);
    return where === undefined;
  });
  return { scope: files.scope, source: files.manifest, lookup, plugins };
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
