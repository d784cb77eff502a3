import type { Context } from '@pi/context';
import type { SettingLayer, WritableSettingLayer } from '@pi/plugin-api';
import { defineLocalService, type JsonObject, type JsonValue } from '@pi/remote';

/**
 * Where a value came from: built-in and manifest defaults, then the user's file, then the project's file, then
 * this session's own values (kept beside the session file).
 */
export type SettingsLayer = SettingLayer;

/**
 * A file layer, or one value in it, that could not be used; the other layers still apply. Messages name the file
 * as the user knows it (`the user settings.json`), never its path; `key` is set when one value failed its schema.
 */
export interface SettingsWarning {
  layer: 'user' | 'project';
  key?: string;
  message: string;
}

export interface SettingsSnapshot {
  /** The merged settings: plain objects merge key by key, anything else is replaced by the later layer. */
  values: JsonObject;
  warnings: SettingsWarning[];
}

/**
 * The full settings service, local to the session process: any key, read synchronously (a provider plugin
 * reads its default model during activation), and written to the user layer.
 */
export interface SettingsStore {
  /** The merged value at a dotted key (`editor.tabSize`), or undefined when no layer sets it. */
  get(key: string): JsonValue | undefined;
  snapshot(): SettingsSnapshot;
  /** The last layer that sets the key (the one whose value wins, or whose object is merged last). */
  sourceOf(key: string): SettingsLayer | undefined;
  /** Writes one key of the user's settings file; a project value for the same key still wins. */
  setUser(key: string, value: JsonValue, context: Context): Promise<void>;
  /**
   * Writes one key of a layer: the user's or the project's file (read, changed, replaced whole; a broken file is
   * refused, never overwritten), or the session's values. `undefined` removes the key from that layer.
   */
  setLayer(layer: WritableSettingLayer, key: string, value: JsonValue | undefined, context: Context): Promise<void>;
  /** The value one layer holds at a dotted key, before merging and before any schema. */
  layerValue(layer: SettingsLayer, key: string): JsonValue | undefined;
  /** Re-reads the user and project files. */
  reload(context: Context): Promise<void>;
  /** Called after each change of the merged snapshot; returns the remover. */
  onChange(listener: (snapshot: SettingsSnapshot, context: Context) => void): () => void;
}

export const Settings = defineLocalService<SettingsStore>('settings');

/** A dotted settings key: identifiers separated by dots, so a key never reaches `__proto__`. */
export const SETTINGS_KEY_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,63}(\.[A-Za-z][A-Za-z0-9_-]{0,63}){0,7}$/;

export const SETTINGS_STORE_ERROR_CODES = {
  invalid_key: 'invalid_key',
  /** Not strict JSON (undefined, a function, a non-finite number, a class instance…). */
  invalid_value: 'invalid_value',
  /** The user's file exists but is broken: it is not overwritten, so nothing the user wrote is lost. */
  unreadable: 'unreadable',
  unwritable: 'unwritable',
} as const;

export type SettingsStoreErrorCode = (typeof SETTINGS_STORE_ERROR_CODES)[keyof typeof SETTINGS_STORE_ERROR_CODES];

export class SettingsStoreError extends Error {
  override readonly name = 'SettingsStoreError';
  constructor(
    readonly code: SettingsStoreErrorCode,
    message: string,
  ) {
    super(message);
  }
}
