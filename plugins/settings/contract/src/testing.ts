import { BACKGROUND_CONTEXT, type Context } from '@pi/context';
import type { DeclaredSetting, SettingDeclaration, SettingsBackend } from '@pi/plugin-api';
import type { JsonValue } from '@pi/remote';
import type { SettingsSnapshot, SettingsStore } from './settings-store';

/**
 * A settings store in memory, for tests of plugins that read settings (a feature may not start the real one). It is
 * also a declarations backend: provide it as `SettingsBackendService` too and `context.settings.declare` reads it.
 */
export interface MemorySettings extends SettingsStore, SettingsBackend {
  /** Sets a dotted key as a settings file change would, and tells the listeners. */
  set(key: string, value: JsonValue | undefined, context?: Context): void;
}

/** `values` by dotted key (`{ 'systemPrompt.contextFiles': false }`), all from the user layer. */
export function memorySettings(values: Record<string, JsonValue> = {}): MemorySettings {
  const current = new Map(Object.entries(values));
  const listeners = new Set<(snapshot: SettingsSnapshot, context: Context) => void>();
  const snapshot = (): SettingsSnapshot => ({ values: Object.fromEntries(current), warnings: [] });
  const set = (key: string, value: JsonValue | undefined, context: Context = BACKGROUND_CONTEXT) => {
    if (value === undefined) current.delete(key);
    else current.set(key, value);
    for (const listener of [...listeners]) listener(snapshot(), context);
  };
  return {
    get: (key) => current.get(key),
    snapshot,
    sourceOf: (key) => (current.has(key) ? 'user' : undefined),
    setUser: async (key, value, context) => set(key, value, context),
    setLayer: async (_layer, key, value, context) => set(key, value, context),
    layerValue: (layer, key) => (layer === 'user' ? current.get(key) : undefined),
    reload: async () => undefined,
    onChange(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    set,
    declare<T extends JsonValue>(_owner: string, key: string, declaration: SettingDeclaration<T>): DeclaredSetting<T> {
      const effective = (): { value: T; layer: 'user' | 'defaults' } => {
        const parsed = declaration.schema.safeParse(current.get(key));
        return parsed.success
          ? { value: parsed.data as T, layer: 'user' }
          : { value: declaration.default, layer: 'defaults' };
      };
      let last = effective();
      const own = new Set<(value: T, context: Context) => void>();
      const stop = (() => {
        const listener = (_snapshot: SettingsSnapshot, context: Context) => {
          const next = effective();
          if (JSON.stringify(next.value) === JSON.stringify(last.value)) return;
          last = next;
          for (const each of [...own]) each(next.value, context);
        };
        listeners.add(listener);
        return () => void listeners.delete(listener);
      })();
      return {
        key,
        get value() {
          return effective().value;
        },
        get layer() {
          return effective().layer;
        },
        onChange(listener) {
          own.add(listener);
          return () => void own.delete(listener);
        },
        remove: stop,
      };
    },
  };
}
