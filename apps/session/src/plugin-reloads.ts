import { err, ok } from 'neverthrow';
import {
  pluginRootsOf,
  reloadPluginSet,
  startDevReload,
  type DevReload,
  type LoadedFacet,
  type PluginSetRequest,
} from '@pi/host-kit';
import type { SessionHost, SessionHostOptions } from '@pi/host-session';

type PluginSetSource = NonNullable<SessionHostOptions['reloadSource']>;

/**
 * What a reload of `pi-session` reads: the same scopes as at start, the plugins' own modules as a fresh generation;
 * a plugin that loaded at start and no longer does fails the reload (`reloadPluginSet`).
 */
export function sessionPluginSource(
  request: PluginSetRequest<'session'>,
  startProblems: readonly string[],
  loaded: (facets: readonly LoadedFacet<'session'>[]) => void,
): PluginSetSource {
  return async (generation) => {
    const set = await reloadPluginSet({ ...request, generation }, startProblems);
    if (set.isErr()) return err(set.error);
    loaded(set.value.facets);
    return ok(set.value.facets);
  };
}

/**
 * `pi-session --dev`: a change under a plugin's own folder reloads the session's plugin set; each outcome is one
 * line of the session's log (the diagnostics have it too).
 */
export function sessionDevReload(
  host: Pick<SessionHost, 'reload'>,
  facets: () => readonly LoadedFacet<'session'>[],
  built: Readonly<Record<string, string>>,
  log: (line: string) => void,
): DevReload {
  return startDevReload({
    roots: () => pluginRootsOf(facets(), built),
    reload: async (changed) => {
      const outcome = await host.reload();
      log(`--dev: ${changed} changed; ${outcome.ok ? outcome.message : `reload refused: ${outcome.message}`}`);
    },
  });
}
