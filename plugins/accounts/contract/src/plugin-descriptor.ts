import type { PluginDescriptor } from '@pi/plugin-catalog';

/** The id of the @pi/accounts plugin in every host's manifest; each facet names itself with it. */
export const ACCOUNTS_PLUGIN_ID = '@pi/accounts';

/** What every host knows about @pi/accounts without loading it: credentials live in the session only. */
export const accountsPlugin: PluginDescriptor = Object.freeze({
  id: ACCOUNTS_PLUGIN_ID,
  description:
    'Provider credentials: a local credential store and a remote façade that shows which providers have a key',
  facets: Object.freeze(['session'] as const),
});
