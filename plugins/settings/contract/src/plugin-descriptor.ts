import type { PluginDescriptor } from '@pi/plugin-catalog';

/** The id of the @pi/settings plugin in every host's manifest; each facet names itself with it. */
export const SETTINGS_PLUGIN_ID = '@pi/settings';

/** What every host knows about @pi/settings without loading it. */
export const settingsPlugin: PluginDescriptor = Object.freeze({
  id: SETTINGS_PLUGIN_ID,
  description:
    'Layered settings (defaults, user, project) and a remote preferences façade with an allowlist of writable keys',
  facets: Object.freeze(['session'] as const),
});
