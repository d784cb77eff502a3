import type { Context } from '@pi/context';
import type { DeclaredSetting } from '@pi/plugin-api';
import { BUILTIN_THEME_NAMES } from '@pi/settings';
import { z } from 'zod';
import type { SettingDeclarations } from './setting-declarations';
import { loadThemes, type LoadedThemes, type ThemeSource } from './theme-files';

export const THEME_SETTING = 'theme';

/**
 * The user's themes (their own, then those of installed packages) and the `theme` setting that names one of them: its
 * schema is the list of theme names (the built-in two, then the others), so a name without a theme is reported like
 * any bad value and the layer below is used. When a reload finds other theme files, the setting is declared again
 * with the new names.
 */
export class ThemeSetting {
  #loaded: LoadedThemes = { themes: [], warnings: [] };
  #declared: DeclaredSetting<string> | undefined;
  #names = '';

  constructor(
    private readonly declarations: SettingDeclarations,
    private readonly owner: string,
    private readonly sources: () => Promise<readonly ThemeSource[]>,
  ) {}

  themes(): LoadedThemes {
    return this.#loaded;
  }

  async reload(_context: Context): Promise<void> {
    this.#loaded = await loadThemes(await this.sources());
    const names = [...BUILTIN_THEME_NAMES, ...this.#loaded.themes.map((theme) => theme.name)];
    if (names.join(',') === this.#names) return;
    this.#names = names.join(',');
    this.#declared?.remove();
    this.#declared = this.declarations.declare(this.owner, THEME_SETTING, {
      schema: z.enum(names as [string, ...string[]]),
      default: 'dark',
      description:
        'The colour theme of every TUI: dark, light, one of the themes/<name>.json in the config dir, or a theme of an installed package',
    });
  }

  remove(): void {
    this.#declared?.remove();
  }
}
