import type { PluginDescriptor } from './plugin-descriptor';

/**
 * The plugins this build knows, by manifest id, and which hosts they have facets for. Every host checks a
 * manifest against this list (an unknown id is a startup error) and loads only its own facets.
 */
export const BUILTIN_PLUGINS: readonly PluginDescriptor[] = [
  { id: '@pi/settings', description: 'Layered settings and the remote preferences façade', facets: ['session'] },
  { id: '@pi/accounts', description: 'Local credentials store and the narrow Accounts façade', facets: ['session'] },
  { id: '@pi/providers-builtin', description: 'Offline and OpenAI-compatible providers, models.json, the Models service', facets: ['session'] },
  { id: '@pi/chat', description: 'Prompting, abort, the transcript and streaming events', facets: ['session'] },
  { id: '@pi/question', description: 'The question tool and its interaction', facets: ['session'] },
];

/** The manifest every host starts with unless given another: built-ins in precedence order. */
export const DEFAULT_MANIFEST = {
  plugins: ['@pi/settings', '@pi/accounts', '@pi/providers-builtin', '@pi/chat', '@pi/question'],
} as const;
