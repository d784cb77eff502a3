import type { JsonValue } from '@pi/json';
import type { PluginLifecycleScope } from '@pi/kernel';
import { z } from 'zod';
import type { PluginSettings, Setting, SettingDeclaration, SettingsBackend } from '@pi/plugin-api';

/**
 * `context.settings` for one plugin: declarations go to the settings plugin's backend under the plugin's id, and
 * each is forgotten when the plugin is disposed. A change of one of its settings replays the tool and provider
 * registries (coalesced by the host), so contributions that read the value are rebuilt with it. Without a backend
 * (no settings plugin in the manifest) every setting is its default.
 */
export function pluginSettings(
  owner: string,
  scope: PluginLifecycleScope,
  backend: () => SettingsBackend | undefined,
  rebuild: () => void,
): PluginSettings {
  return {
    declare<T extends JsonValue>(key: string, declaration: SettingDeclaration<T>): Setting<T> {
      const source = backend();
      if (source === undefined) return defaultSetting(key, declaration);
      const declared = source.declare(owner, key, declaration);
      scope.own(() => declared.remove());
      scope.own(declared.onChange(() => rebuild()));
      return {
        key,
        get value() {
          return declared.value;
        },
        get layer() {
          return declared.layer;
        },
        onChange(listener) {
          const remove = declared.onChange(listener);
          scope.own(remove);
          return remove;
        },
      };
    },
  };
}

function defaultSetting<T extends JsonValue>(key: string, declaration: SettingDeclaration<T>): Setting<T> {
  const checked = declaration.schema.safeParse(declaration.default);
  if (!checked.success) throw new Error(`The default of setting "${key}" fails its schema`);
  z.toJSONSchema(declaration.schema);
  return Object.freeze({ key, value: checked.data, layer: 'defaults', onChange: () => () => undefined });
}
