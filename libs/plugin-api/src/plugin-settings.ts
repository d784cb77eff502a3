import type { Context } from '@pi/context';
import type { JsonValue } from '@pi/json';
import { defineLocalService } from '@pi/remote';
import type { z } from 'zod';

/**
 * Where an effective value came from, lowest first: the declared default (or a deployment's manifest default), the
 * user's `settings.json` in the config directory, the project's `.pi/settings.json`, and this session alone.
 */
export const SETTING_LAYERS = ['defaults', 'user', 'project', 'session'] as const;

export type SettingLayer = (typeof SETTING_LAYERS)[number];

/** The layers a person can write: every one but the defaults. */
export type WritableSettingLayer = Exclude<SettingLayer, 'defaults'>;

/** One setting a plugin declares: its schema is the single source of truth for files, clients and `/settings`. */
export interface SettingDeclaration<T extends JsonValue> {
  /** Must export as JSON Schema (`z.toJSONSchema`): no transforms, no functions. */
  readonly schema: z.ZodType<T>;
  /** Used when no layer holds a valid value; must pass the schema. */
  readonly default: T;
  /** One line a settings UI shows beside the key. */
  readonly description: string;
}

/** A declared setting as its plugin reads it: always a value that passed the schema. */
export interface Setting<T extends JsonValue> {
  readonly key: string;
  /** The effective value: the highest layer whose value passes the schema, else the default. */
  readonly value: T;
  /** The layer `value` came from. */
  readonly layer: SettingLayer;
  /** Called after the effective value changed; owned by the plugin's scope, and the remover removes it earlier. */
  onChange(listener: (value: T, context: Context) => void): () => void;
}

/**
 * `context.settings`: a plugin declares what it reads. A change of a declared setting (from a client, or a file
 * re-read) replays the session's registries, so tool and provider contributions that read `setting.value` are
 * rebuilt with the new value; no process reload.
 */
export interface PluginSettings {
  /**
   * Declares a dotted key (`editor.tabSize`), owned by this plugin. A second declaration of a key, a default that
   * fails its schema or a schema that has no JSON Schema form is a bug, and throws.
   */
  declare<T extends JsonValue>(key: string, declaration: SettingDeclaration<T>): Setting<T>;
}

/** A declared setting as the backend hands it to the host, which scopes its listeners to the plugin. */
export interface DeclaredSetting<T extends JsonValue> extends Setting<T> {
  /** Forgets the declaration (its plugin was disposed). */
  remove(): void;
}

/**
 * The authority behind `context.settings`, provided locally by the settings plugin. Without it, a declared setting
 * is its default for the whole session.
 */
export interface SettingsBackend {
  declare<T extends JsonValue>(owner: string, key: string, declaration: SettingDeclaration<T>): DeclaredSetting<T>;
}

export const SettingsBackendService = defineLocalService<SettingsBackend>('settings-backend');
