export { EDITOR_SETTING } from './editor-setting';
export { SETTINGS_PLUGIN_ID } from './plugin-id';
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
  MAX_PREFERENCE_ID_LENGTH,
  MAX_PREFERENCE_VALUE_LENGTH,
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
export {
  SettingsCatalog,
  settingEntrySchema,
  settingsCatalogStateSchema,
  type SettingEntry,
  type SettingsCatalogService,
  type SettingsCatalogState,
  type ThemeWarning,
} from './settings-catalog';
export {
  BUILTIN_THEME_NAMES,
  THEME_COLORS,
  THEME_NAME_PATTERN,
  themeColorValueSchema,
  themeFileSchema,
  themeRecordSchema,
  themeStyleSchema,
  type ThemeFile,
  type ThemeRecord,
  type ThemeStyle,
} from './theme-file';
