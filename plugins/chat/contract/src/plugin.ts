import type { PluginDescriptor } from '@pi/plugin-catalog';

/** The id of the @pi/chat plugin in every host's manifest; each facet names itself with it. */
export const CHAT_PLUGIN_ID = '@pi/chat';

/** What every host knows about @pi/chat without loading it. */
export const chatPluginDescriptor: PluginDescriptor = Object.freeze({
  id: CHAT_PLUGIN_ID,
  description: 'Prompt, abort and the live transcript of the session, for presentations to render',
  facets: Object.freeze(['session'] as const),
});
