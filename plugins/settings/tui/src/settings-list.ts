import type { JsonValue, WritableSettingLayer } from '@pi/plugin-api';
import type { SettingEntry, SettingsCatalogState } from '@pi/settings';
import { formatValue } from './value-kind';

/** Where a change can go, in the order `/settings` offers them: the session, the user's file, the project's. */
export const LAYER_CHOICES: ReadonlyArray<{ readonly layer: WritableSettingLayer; readonly label: string }> = [
  { layer: 'session', label: 'session — this session only' },
  { layer: 'user', label: 'user — every session (settings.json in the config dir)' },
  { layer: 'project', label: 'project — this project (.pi/settings.json)' },
];

/** One line per setting, grouped by plugin (the catalog's order): `plugin  key = value  (layer)`. */
export function settingLines(state: SettingsCatalogState): string[] {
  const width = Math.max(0, ...state.settings.map((setting) => setting.owner.length));
  return state.settings.map(
    (setting) =>
      `${setting.owner.padEnd(width)}  ${setting.key} = ${clip(formatValue(setting.value))}  (${setting.layer})`,
  );
}

/** The warnings of the catalog as lines: bad values (file and key), broken files, broken themes. */
export function warningLines(state: SettingsCatalogState): string[] {
  return [
    ...state.warnings.map((warning) => warning.message),
    ...state.themeWarnings.map((warning) => `${warning.file}: ${warning.message}`),
  ];
}

/** The choices for a setting's value: each option, the current one marked. */
export function optionLabels(setting: SettingEntry, options: readonly JsonValue[]): string[] {
  return options.map(
    (option) => `${JSON.stringify(option) === JSON.stringify(setting.value) ? '● ' : '  '}${formatValue(option)}`,
  );
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}
