export { SETTINGS_PLUGIN_ID } from './plugin-descriptor';
export {
  SETTINGS_KEY_PATTERN,
  SETTINGS_STORE_ERROR_CODES,
  Settings,
  SettingsStoreError,
  type SettingsLayer,
  type SettingsSnapshot,
  type SettingsStore,
  type SettingsStoreErrorCode,
  type SettingsWarning,
} from './settings-store';
export {
  PREFERENCE_KEYS,
  Preferences,
  isPreferenceKey,
  modelPreferenceSchema,
  preferenceSchemas,
  preferencesStateSchema,
  type ModelPreference,
  type PreferenceKey,
  type PreferenceValues,
  type PreferencesService,
  type PreferencesState,
  type ThinkingLevelPreference,
} from './preferences-service';
