import { join, relative, sep } from 'node:path';
import { packageResourceDirs } from '@pi/plugin-packages';
import { THEMES_DIRECTORY, type ThemeSource } from './theme-files';

/**
 * Where themes come from, in order: the user's `themes/` in the config dir, then the theme folders of the packages
 * `pi install` put in the global scope and in the project's. Each is named relative to the config dir or the project,
 * as warnings show it.
 */
export async function themeSources(configDir: string, cwd: string): Promise<ThemeSource[]> {
  const packaged = await packageResourceDirs({ configDir, project: cwd }, 'themes');
  const label = (directory: string) => {
    const inConfig = relative(configDir, directory);
    return inConfig.startsWith('..') || inConfig.startsWith(sep) ? relative(cwd, directory) : inConfig;
  };
  return [
    { directory: join(configDir, THEMES_DIRECTORY), label: THEMES_DIRECTORY },
    ...packaged.map((directory) => ({ directory, label: label(directory) })),
  ];
}
