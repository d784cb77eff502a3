import { BACKGROUND_CONTEXT, type Context } from '@pi/context';
import type { DeclaredSetting, SettingDeclaration, SettingLayer, SettingsBackend } from '@pi/plugin-api';
import { detachJson, jsonEquals, type JsonObject, type JsonValue } from '@pi/remote';
import { SETTINGS_KEY_PATTERN, type SettingEntry, type SettingsStore, type SettingsWarning } from '@pi/settings';
import { z } from 'zod';
import { settingsFileName } from './settings-file';

interface Declared {
  readonly owner: string;
  readonly key: string;
  readonly declaration: SettingDeclaration<JsonValue>;
  readonly jsonSchema: JsonObject;
  readonly listeners: Set<(value: JsonValue, context: Context) => void>;
  value: JsonValue;
  layer: SettingLayer;
  warnings: SettingsWarning[];
}

/** Highest first: the first layer whose value passes the schema wins. */
const LOOKUP_ORDER = ['session', 'project', 'user', 'defaults'] as const;

/**
 * The declared settings over the layered store: each key's effective value is the highest layer's value that
 * passes the key's schema; a value that fails is a warning naming the file and the key, and the layer below is
 * used (the file is left as it is). After every change of the store the values are recomputed and the listeners
 * of the keys whose effective value changed are told.
 */
export class SettingDeclarations implements SettingsBackend {
  readonly #store: SettingsStore;
  readonly #declared = new Map<string, Declared>();
  readonly #changed = new Set<(context: Context) => void>();
  /** Owners in the order they first declared: manifest order, since facets set up in that order. */
  readonly #owners: string[] = [];
  readonly #report: (owner: string, message: string) => void;

  constructor(store: SettingsStore, report: (owner: string, message: string) => void) {
    this.#store = store;
    this.#report = report;
  }

  declare<T extends JsonValue>(owner: string, key: string, declaration: SettingDeclaration<T>): DeclaredSetting<T> {
    if (!SETTINGS_KEY_PATTERN.test(key)) throw new Error(`"${key}" is not a settings key (dotted identifiers)`);
    const existing = this.#declared.get(key);
    if (existing !== undefined) throw new Error(`The setting "${key}" is already declared by ${existing.owner}`);
    if (!declaration.schema.safeParse(declaration.default).success)
      throw new Error(`The default of setting "${key}" fails its schema`);
    const jsonSchema = z.toJSONSchema(declaration.schema) as JsonObject;
    const entry: Declared = {
      owner,
      key,
      declaration: declaration as unknown as SettingDeclaration<JsonValue>,
      jsonSchema: detachJson(jsonSchema) as JsonObject,
      listeners: new Set(),
      value: declaration.default,
      layer: 'defaults',
      warnings: [],
    };
    this.#resolve(entry);
    this.#declared.set(key, entry);
    if (!this.#owners.includes(owner)) this.#owners.push(owner);
    this.#catalogChanged(BACKGROUND_CONTEXT);
    return {
      key,
      get value() {
        return entry.value as T;
      },
      get layer() {
        return entry.layer;
      },
      onChange: (listener) => {
        const typed = listener as (value: JsonValue, context: Context) => void;
        entry.listeners.add(typed);
        return () => void entry.listeners.delete(typed);
      },
      remove: () => {
        if (this.#declared.get(key) !== entry) return;
        this.#declared.delete(key);
        this.#catalogChanged(BACKGROUND_CONTEXT);
      },
    };
  }

  has(key: string): boolean {
    return this.#declared.has(key);
  }

  /** The declaration of a key, for checking a value a client wants to write. */
  schemaOf(key: string): z.ZodType<JsonValue> | undefined {
    return this.#declared.get(key)?.declaration.schema;
  }

  /** The effective value of a declared key (undefined when none declares it). */
  valueOf(key: string): JsonValue | undefined {
    const entry = this.#declared.get(key);
    return entry === undefined ? undefined : detachJson(entry.value);
  }

  /** Every declaration as clients see it: grouped by owner in manifest order, keys sorted within an owner. */
  entries(): SettingEntry[] {
    const rank = (owner: string) => this.#owners.indexOf(owner);
    return [...this.#declared.values()]
      .sort((a, b) => rank(a.owner) - rank(b.owner) || a.key.localeCompare(b.key))
      .map((entry) => ({
        key: entry.key,
        owner: entry.owner,
        description: entry.declaration.description,
        schema: entry.jsonSchema,
        default: entry.declaration.default,
        value: entry.value,
        layer: entry.layer,
      }));
  }

  /** Values that failed their schema, by layer and key. */
  warnings(): SettingsWarning[] {
    return [...this.#declared.values()].flatMap((entry) => entry.warnings);
  }

  /** Called after any declared value, layer or warning changed, or a declaration came or went. */
  onCatalogChange(listener: (context: Context) => void): () => void {
    this.#changed.add(listener);
    return () => void this.#changed.delete(listener);
  }

  /** Recomputes every key after the store changed; tells the listeners of the keys whose value changed. */
  refresh(context: Context): void {
    for (const entry of this.#declared.values()) {
      const before = entry.value;
      this.#resolve(entry);
      if (jsonEquals(before, entry.value)) continue;
      for (const listener of [...entry.listeners]) {
        try {
          listener(entry.value, context);
        } catch (error) {
          this.#report(entry.owner, `setting "${entry.key}" listener: ${String(error)}`);
        }
      }
    }
    this.#catalogChanged(context);
  }

  #catalogChanged(context: Context): void {
    for (const listener of [...this.#changed]) listener(context);
  }

  #resolve(entry: Declared): void {
    const warnings: SettingsWarning[] = [];
    for (const layer of LOOKUP_ORDER) {
      const raw = this.#store.layerValue(layer, entry.key);
      if (raw === undefined) continue;
      const parsed = entry.declaration.schema.safeParse(raw);
      if (parsed.success) {
        entry.value = Object.freeze(detachJson(parsed.data)) as JsonValue;
        entry.layer = layer;
        entry.warnings = warnings;
        return;
      }
      if (layer === 'user' || layer === 'project')
        warnings.push({
          layer,
          key: entry.key,
          message: `${settingsFileName(layer)}: "${entry.key}" is ignored (${parsed.error.issues[0]?.message ?? 'invalid value'})`,
        });
    }
    entry.value = entry.declaration.default;
    entry.layer = 'defaults';
    entry.warnings = warnings;
  }
}
