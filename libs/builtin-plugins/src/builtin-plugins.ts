import { accountsPlugin } from '@pi/accounts-contract';
import { chatPluginDescriptor } from '@pi/chat-contract';
import type { PluginDescriptor } from '@pi/plugin-catalog';
import { providersBuiltinPlugin } from '@pi/providers-builtin-contract';
import { questionPluginDescriptor } from '@pi/question-contract';
import { settingsPlugin } from '@pi/settings-contract';

/**
 * The plugins this build knows, each described by its own contract: every host checks a manifest against this
 * list (an unknown id is a startup error) and loads only its own facets.
 */
export const BUILTIN_PLUGINS: readonly PluginDescriptor[] = [
  settingsPlugin,
  accountsPlugin,
  providersBuiltinPlugin,
  chatPluginDescriptor,
  questionPluginDescriptor,
];

/** The manifest every host starts with unless given another: built-ins in precedence order. */
export const DEFAULT_MANIFEST = {
  plugins: BUILTIN_PLUGINS.map((plugin) => plugin.id),
};
