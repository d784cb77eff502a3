import { PLUGIN_API_VERSION } from './plugin-metadata';

/** A plugin as a hello names it: its id and the plugin API its package says it was built for, where known. */
export interface PluginApiDeclaration {
  readonly id: string;
  readonly apiVersion?: string | undefined;
}

/** What a hello says a host runs: its plugin API and its plugins. */
export interface RunningPlugins {
  readonly pluginApi?: string | undefined;
  readonly plugins?: readonly PluginApiDeclaration[] | undefined;
}

/**
 * A presentation's check of the host it attached to (the version handshake, issue 22): null when they can work
 * together, else the one line that says why not. In order: the host's plugin API major against this pi's; each of
 * the host's plugins built for another major than this pi provides (named); and each plugin both ends run (the
 * session's half and this presentation's half of one plugin, `own`) built for different majors (named). A host or a
 * plugin that names no version (built before the handshake) is accepted. The protocol is checked by the transport first.
 */
export function pluginApiMismatch(
  host: RunningPlugins | string | undefined,
  own: RunningPlugins | string = PLUGIN_API_VERSION,
): string | null {
  const { pluginApi: hostApi, plugins = [] } =
    typeof host === 'string' || host === undefined ? { pluginApi: host } : host;
  const mine = typeof own === 'string' ? { pluginApi: own } : own;
  const ownApi = mine.pluginApi ?? PLUGIN_API_VERSION;
  if (hostApi !== undefined && majorOf(hostApi) !== majorOf(ownApi)) {
    return `the host runs plugin API ${hostApi}, this pi ${ownApi}`;
  }
  for (const plugin of plugins) {
    if (plugin.apiVersion !== undefined && majorOf(plugin.apiVersion) !== majorOf(ownApi))
      return `the host runs plugin ${plugin.id} built for plugin API ${plugin.apiVersion}, this pi provides ${ownApi}`;
  }
  const ours = new Map((mine.plugins ?? []).map((plugin) => [plugin.id, plugin.apiVersion]));
  for (const plugin of plugins) {
    const here = ours.get(plugin.id);
    if (plugin.apiVersion === undefined || here === undefined || majorOf(here) === majorOf(plugin.apiVersion)) continue;
    return `plugin ${plugin.id} is built for plugin API ${plugin.apiVersion} in the host and ${here} here; install one version of it for both`;
  }
  return null;
}

function majorOf(version: string): string {
  return version.split('.')[0] ?? version;
}
