import { PLUGIN_API_VERSION } from './plugin-metadata';

/**
 * A presentation's check of the host it attached to (the version handshake, issue 22): null when the host provides
 * the plugin API major this pi was built for, or says nothing of it (a host built before the handshake); else the
 * line that says both. The protocol itself is checked by the transport first.
 */
export function pluginApiMismatch(hostPluginApi: string | undefined, own: string = PLUGIN_API_VERSION): string | null {
  if (hostPluginApi === undefined || majorOf(hostPluginApi) === majorOf(own)) return null;
  return `the host runs plugin API ${hostPluginApi}, this pi ${own}`;
}

function majorOf(version: string): string {
  return version.split('.')[0] ?? version;
}
