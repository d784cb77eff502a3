import {
  PREFERENCE_KEYS,
  preferenceSchemas,
  type PreferenceKey,
  type PreferencesState,
  type PreferenceValues,
  type SettingsLayer,
  type SettingsSnapshot,
  type SettingsWarning,
} from '@pi/settings';
import { BUILTIN_DEFAULTS } from './builtin-defaults';

/** Which layer last set a key, for warnings about a value of the wrong shape. */
export type SourceOf = (key: PreferenceKey) => SettingsLayer | undefined;

/**
 * The client-safe preferences: each allowlisted key's effective value, checked by its schema. A value of the
 * wrong shape falls back to the built-in default and becomes a warning naming the layer it came from, so one
 * typo in a file cannot break the state every presentation replicates.
 */
export function projectPreferences(snapshot: SettingsSnapshot, sourceOf: SourceOf): PreferencesState {
  const values: Record<string, unknown> = {};
  const warnings: SettingsWarning[] = [...snapshot.warnings];
  for (const key of PREFERENCE_KEYS) {
    const raw = snapshot.values[key];
    const parsed = raw === undefined ? undefined : preferenceSchemas[key].safeParse(raw);
    if (parsed?.success === true) {
      values[key] = parsed.data;
      continue;
    }
    values[key] = BUILTIN_DEFAULTS[key];
    const layer = sourceOf(key);
    if (parsed !== undefined && (layer === 'user' || layer === 'project'))
      warnings.push({ layer, message: `"${key}" is ignored: ${parsed.error.issues[0]?.message ?? 'invalid value'}` });
  }
  return { ...(values as unknown as PreferenceValues), warnings };
}
