import { z } from 'zod';
import { thinkingLevelSchema, type ThinkingLevel } from '@pi/agent-contract';
import type { Context } from '@pi/context';
import { defineRemoteService, type JsonValue, type RemoteState } from '@pi/remote';
import type { SettingsWarning } from './settings-store';

export type ThinkingLevelPreference = ThinkingLevel;

// Type aliases rather than interfaces, so values are assignable to JsonObject (interfaces lack an index signature).
export type ModelPreference = {
  provider: string;
  modelId: string;
};

/** The settings a presentation may read and write. Everything else stays behind the local Settings service. */
export type PreferenceValues = {
  /** The name of a TUI theme. */
  theme: string;
  /** The model a new session starts with; null: the providers plugin's own default. */
  defaultModel: ModelPreference | null;
  defaultThinkingLevel: ThinkingLevelPreference;
};

export type PreferenceKey = keyof PreferenceValues;

export interface PreferencesState extends PreferenceValues {
  /** Layers that could not be read, so a presentation can say why a setting seems ignored. */
  warnings: SettingsWarning[];
}

/**
 * The narrow remote façade over settings: the allowlisted keys, their effective values, and a setter that
 * writes the user layer. A key outside the allowlist, or a value of the wrong shape, is `invalid_argument`.
 */
export interface PreferencesService {
  readonly state: RemoteState<PreferencesState>;
  set(key: PreferenceKey, value: JsonValue, context: Context): Promise<void>;
}

/** The longest provider id and model id a model preference holds (as `models.select` accepts). */
export const MAX_PREFERENCE_ID_LENGTH = 256;
/** The largest preference value `set` accepts, as JSON text: every allowlisted value is far smaller. */
export const MAX_PREFERENCE_VALUE_LENGTH = 4096;

export const modelPreferenceSchema = z.object({
  provider: z.string().min(1).max(MAX_PREFERENCE_ID_LENGTH),
  modelId: z.string().min(1).max(MAX_PREFERENCE_ID_LENGTH),
});

/** Any JSON, bounded: which shape a key takes is checked on the server, against the key's own schema. */
const preferenceValueSchema = z.json().refine((value) => JSON.stringify(value).length <= MAX_PREFERENCE_VALUE_LENGTH, {
  message: `A preference value is at most ${MAX_PREFERENCE_VALUE_LENGTH} characters of JSON`,
});

/** One schema per allowlisted key: the allowlist itself, and how a value read from a file is checked. */
export const preferenceSchemas = {
  theme: z.string().regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'A theme name is lower-case letters, digits and dashes'),
  defaultModel: modelPreferenceSchema.nullable(),
  defaultThinkingLevel: thinkingLevelSchema,
} satisfies { [K in PreferenceKey]: z.ZodType<PreferenceValues[K]> };

export const PREFERENCE_KEYS = Object.freeze(Object.keys(preferenceSchemas) as PreferenceKey[]);

export function isPreferenceKey(key: string): key is PreferenceKey {
  return Object.hasOwn(preferenceSchemas, key);
}

export const preferencesStateSchema = z.object({
  ...preferenceSchemas,
  warnings: z.array(z.object({ layer: z.enum(['user', 'project']), message: z.string() })),
});

export const Preferences = defineRemoteService<PreferencesService>('preferences', {
  methods: {
    set: {
      args: [z.enum(PREFERENCE_KEYS as [PreferenceKey, ...PreferenceKey[]]), preferenceValueSchema],
      result: z.void(),
    },
  },
  state: { state: preferencesStateSchema },
  events: {},
});
