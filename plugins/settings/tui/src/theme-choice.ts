import type { TuiThemeDefinition, TuiThemeStyle } from '@pi/plugin-api';
import type { SettingsCatalogState, ThemeRecord } from '@pi/settings';
import { darkTheme, lightTheme } from '@pi/terminal';

const BUILTIN_THEMES: Readonly<Record<ThemeRecord['base'], TuiThemeDefinition>> = {
  dark: darkTheme,
  light: lightTheme,
};

/** The theme setting's key, declared by the settings plugin's session facet. */
export const THEME_SETTING = 'theme';

/**
 * The theme the catalog names: a built-in one, or a user theme over its base. A name with no theme (its file was
 * removed since) is the dark theme, and says so.
 */
export function chosenTheme(state: SettingsCatalogState): { theme: TuiThemeDefinition; problem?: string } {
  const entry = state.settings.find((setting) => setting.key === THEME_SETTING);
  const name = typeof entry?.value === 'string' ? entry.value : 'dark';
  if (name === 'dark' || name === 'light') return { theme: BUILTIN_THEMES[name] };
  const record = state.themes.find((theme) => theme.name === name);
  if (record === undefined) return { theme: darkTheme, problem: `No theme "${name}": using dark` };
  return { theme: userTheme(record) };
}

function userTheme(record: ThemeRecord): TuiThemeDefinition {
  const base = BUILTIN_THEMES[record.base];
  // The schema checked each colour (`#rrggbb`), which its inferred type cannot say.
  return { name: record.name, styles: { ...base.styles, ...(record.styles as Record<string, TuiThemeStyle>) } };
}
