import { err, ok, type Result } from 'neverthrow';
import type { PluginManifest } from '@pi/kernel';
import { hasFacet, type PluginDescriptor } from '@pi/plugin-catalog';
import type { SessionFacet } from './session-context';

export interface ResolvedSessionFacet {
  readonly id: string;
  readonly config: PluginManifest['entries'][number]['config'];
  readonly facet: SessionFacet;
}

export interface ResolveError {
  readonly code: 'unknown_plugin' | 'missing_facet';
  readonly pluginId: string;
  readonly message: string;
}

/**
 * Per-host entry resolution: every manifest id must be a known plugin; this host loads only the plugins' session
 * facets, in manifest order, and skips plugins that have none. The table holds session code only, so a session
 * process never imports a presentation facet.
 */
export function resolveSessionFacets(
  manifest: PluginManifest,
  catalog: readonly PluginDescriptor[],
  table: Readonly<Record<string, SessionFacet>>,
): Result<ResolvedSessionFacet[], ResolveError> {
  const resolved: ResolvedSessionFacet[] = [];
  for (const entry of manifest.entries) {
    const descriptor = catalog.find((candidate) => candidate.id === entry.id);
    if (descriptor === undefined) {
      const known = catalog.map((candidate) => candidate.id).join(', ');
      return err({
        code: 'unknown_plugin',
        pluginId: entry.id,
        message: `Unknown plugin "${entry.id}" in the manifest (known: ${known})`,
      });
    }
    if (!hasFacet(descriptor, 'session')) continue;
    const facet = Object.hasOwn(table, entry.id) ? table[entry.id] : undefined;
    if (facet === undefined) {
      return err({
        code: 'missing_facet',
        pluginId: entry.id,
        message: `Plugin "${entry.id}" declares a session facet this build does not include`,
      });
    }
    resolved.push({ id: entry.id, config: entry.config, facet });
  }
  return ok(resolved);
}
