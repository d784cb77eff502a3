import { z } from 'zod';
import type { Context } from '@pi/context';
import { SETTING_LAYERS, type SettingLayer, type WritableSettingLayer } from '@pi/plugin-api';
import { defineRemoteService, type JsonObject, type JsonValue, type RemoteState } from '@pi/remote';
import { MAX_PREFERENCE_VALUE_LENGTH } from './preferences-service';
import { SETTINGS_KEY_PATTERN, type SettingsWarning } from './settings-store';
import { themeRecordSchema, type ThemeRecord } from './theme-file';

/** One declared setting as clients see it: enough to render and edit it without the plugin's code. */
export type SettingEntry = {
  key: string;
  /** The plugin that declared it. */
  owner: string;
  description: string;
  /** The declared zod schema as JSON Schema (draft 2020-12, `z.toJSONSchema`). */
  schema: JsonObject;
  default: JsonValue;
  /** The effective value and the layer it came from. */
  value: JsonValue;
  layer: SettingLayer;
};

/** A theme file that could not be used, named as the config dir holds it (`themes/ocean.json`), never by path. */
export type ThemeWarning = {
  file: string;
  message: string;
};

export interface SettingsCatalogState {
  /** Every declared setting, grouped by owner in manifest order, keys sorted within a plugin. */
  settings: SettingEntry[];
  /** Broken files and values that failed their schema (the layer below was used). */
  warnings: SettingsWarning[];
  /** The user's themes from the config dir (the built-in `dark` and `light` are every TUI's own). */
  themes: ThemeRecord[];
  themeWarnings: ThemeWarning[];
}

/**
 * The declared settings for clients. `set` checks the value against the declaration's schema and writes it to the
 * layer asked for; `unset` removes the key from a layer (the one below shows again); `reload` re-reads the files
 * and the themes (after a hand edit). Only declared keys can be written.
 */
export interface SettingsCatalogService {
  readonly state: RemoteState<SettingsCatalogState>;
  set(key: string, value: JsonValue, layer: WritableSettingLayer, context: Context): Promise<void>;
  unset(key: string, layer: WritableSettingLayer, context: Context): Promise<void>;
  reload(context: Context): Promise<void>;
}

const WRITABLE_LAYERS = ['user', 'project', 'session'] as const satisfies readonly WritableSettingLayer[];

const keySchema = z.string().max(520).regex(SETTINGS_KEY_PATTERN, 'A settings key is dotted identifiers');
const layerSchema = z.enum(WRITABLE_LAYERS);
const valueSchema = z.json().refine((value) => JSON.stringify(value).length <= MAX_PREFERENCE_VALUE_LENGTH, {
  message: `A setting's value is at most ${MAX_PREFERENCE_VALUE_LENGTH} characters of JSON`,
});

export const settingEntrySchema = z.object({
  key: z.string(),
  owner: z.string(),
  description: z.string(),
  schema: z.record(z.string(), z.json()),
  default: z.json(),
  value: z.json(),
  layer: z.enum(SETTING_LAYERS),
});

export const settingsCatalogStateSchema = z.object({
  settings: z.array(settingEntrySchema),
  warnings: z.array(z.object({ layer: z.enum(['user', 'project']), key: z.string().optional(), message: z.string() })),
  themes: z.array(themeRecordSchema),
  themeWarnings: z.array(z.object({ file: z.string(), message: z.string() })),
});

export const SettingsCatalog = defineRemoteService<SettingsCatalogService>('settings-catalog', {
  methods: {
    set: { args: [keySchema, valueSchema, layerSchema], result: z.void() },
    unset: { args: [keySchema, layerSchema], result: z.void() },
    reload: { args: [], result: z.void() },
  },
  state: { state: settingsCatalogStateSchema },
  events: {},
});
