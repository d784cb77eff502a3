import type { PluginDescriptor } from '@pi/plugin-catalog';

/** The id of the @pi/question plugin in every host's manifest; each facet names itself with it. */
export const QUESTION_PLUGIN_ID = '@pi/question';

/** What every host knows about @pi/question without loading it. */
export const questionPluginDescriptor: PluginDescriptor = Object.freeze({
  id: QUESTION_PLUGIN_ID,
  description: 'The question tool: the model asks the user, a connected presentation answers',
  facets: Object.freeze(['session'] as const),
});
