import { join } from 'node:path';
import { BACKGROUND_CONTEXT } from '@pi/context';
import type { CodingAgentSessionPluginContext } from '@pi/plugin-api';
import { RemoteError, checkJson, quoteForError, type JsonObject } from '@pi/remote';
import {
  PREFERENCE_KEYS,
  Preferences,
  Settings,
  isPreferenceKey,
  preferenceSchemas,
  type PreferencesState,
} from '@pi/settings';
import { BUILTIN_DEFAULTS } from './builtin-defaults';
import { deepMerge, isJsonObject } from './json-object';
import { projectPreferences } from './preferences-projection';
import { toPreferencesError } from './settings-errors';
import { openSettingsStore } from './settings-store';

export const USER_SETTINGS_FILE = 'settings.json';
export const PROJECT_SETTINGS_FILE = join('.pi', 'settings.json');

/**
 * The session facet of @pi/settings. Setup reads the layers before it returns, so every other facet can read
 * settings synchronously from its activation on. It provides the full Settings service locally and the
 * Preferences façade remotely; the façade's state follows every change of the merged settings.
 */
export async function settingsSessionFacet(context: CodingAgentSessionPluginContext): Promise<void> {
  const defaults = deepMerge(BUILTIN_DEFAULTS, manifestDefaults(context.config));
  const store = await openSettingsStore(
    defaults,
    {
      user: join(context.paths.configDir, USER_SETTINGS_FILE),
      project: join(context.paths.cwd, PROJECT_SETTINGS_FILE),
    },
    BACKGROUND_CONTEXT,
  );
  const project = () => projectPreferences(store.snapshot(), (key) => store.sourceOf(key));
  const state = context.remoteState<PreferencesState>(project());
  context.own(store.onChange((_snapshot, changeContext) => state.set(project(), changeContext)));

  context.provide(Settings, store);
  context.provide(Preferences, {
    state,
    async set(key, value, callContext) {
      // The wire schema already allowlists the key; checked again here because authorization is the server's job.
      if (!isPreferenceKey(key))
        throw new RemoteError('invalid_argument', `Only ${PREFERENCE_KEYS.join(', ')} can be set remotely`);
      const parsed = preferenceSchemas[key].safeParse(value);
      if (!parsed.success)
        throw new RemoteError(
          'invalid_argument',
          `${quoteForError(key)}: ${parsed.error.issues[0]?.message ?? 'invalid value'}`,
        );
      try {
        await store.setUser(key, parsed.data, callContext);
      } catch (error) {
        throw toPreferencesError(error);
      }
    },
  });
}

/** The manifest entry may set defaults for a deployment: `{ "defaults": { ... } }`. */
function manifestDefaults(config: CodingAgentSessionPluginContext['config']): JsonObject {
  if (config === null) return {};
  const checked = checkJson(config);
  if (checked.isOk() && isJsonObject(checked.value)) {
    const defaults = checked.value['defaults'];
    if (defaults === undefined) return {};
    if (isJsonObject(defaults)) return defaults;
  }
  throw new Error('The @pi/settings manifest config must be { "defaults": { ... } }');
}
