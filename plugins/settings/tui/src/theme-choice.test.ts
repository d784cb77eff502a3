import { describe, expect, it } from 'vitest';
import type { SettingsCatalogState } from '@pi/settings';
import { darkTheme, lightTheme } from '@pi/terminal';
import { chosenTheme } from './theme-choice';

const catalog = (theme: string, themes: SettingsCatalogState['themes'] = []): SettingsCatalogState => ({
  settings: [
    { key: 'theme', owner: '@pi/settings', description: '', schema: {}, default: 'dark', value: theme, layer: 'user' },
  ],
  warnings: [],
  themes,
  themeWarnings: [],
});

describe('the theme a catalog names', () => {
  it('is a built-in theme by its name', () => {
    expect(chosenTheme(catalog('dark')).theme).toBe(darkTheme);
    expect(chosenTheme(catalog('light')).theme).toBe(lightTheme);
  });

  it('is a user theme over its base, its own styles winning', () => {
    const { theme, problem } = chosenTheme(
      catalog('ocean', [{ name: 'ocean', base: 'light', styles: { accent: { fg: 201 } } }]),
    );
    expect(problem).toBeUndefined();
    expect(theme.name).toBe('ocean');
    expect(theme.styles.accent).toEqual({ fg: 201 });
    expect(theme.styles.border).toEqual(lightTheme.styles.border);
  });

  it('is dark, with a problem to tell, when no theme has the name', () => {
    expect(chosenTheme(catalog('gone'))).toEqual({ theme: darkTheme, problem: 'No theme "gone": using dark' });
  });
});
