import type { SettingsCatalogState } from '@pi/settings';

/** The warnings of the catalog as lines: bad values (file and key), broken files, broken themes. */
export function warningLines(state: SettingsCatalogState): string[] {
  return [
    ...state.warnings.map((warning) => warning.message),
    ...state.themeWarnings.map((warning) => `${warning.file}: ${warning.message}`),
  ];
}
