import type { PluginDescriptor } from '@pi/plugin-catalog';

/** The id of the @pi/providers-builtin plugin in every host's manifest; each facet names itself with it. */
export const PROVIDERS_BUILTIN_PLUGIN_ID = '@pi/providers-builtin';

/** What every host knows about @pi/providers-builtin without loading it. */
export const providersBuiltinPlugin: PluginDescriptor = Object.freeze({
  id: PROVIDERS_BUILTIN_PLUGIN_ID,
  description:
    'The offline provider and models.json providers, the model catalogue, and model and thinking-level selection',
  facets: Object.freeze(['session'] as const),
});
