import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  BUILTIN_THEME_NAMES,
  THEME_NAME_PATTERN,
  themeFileSchema,
  type ThemeRecord,
  type ThemeWarning,
} from '@pi/settings';

/** The directory of the config dir that holds user themes, one `<name>.json` each. */
export const THEMES_DIRECTORY = 'themes';

/** At most this many theme files are read; a directory with more is reported, the rest ignored. */
const MAX_THEME_FILES = 64;
/** A theme file larger than this is reported instead of read. */
const MAX_THEME_FILE_BYTES = 64 * 1024;

export interface LoadedThemes {
  readonly themes: ThemeRecord[];
  readonly warnings: ThemeWarning[];
}

/** A folder of theme files, and how its files are named in warnings (relative to the config or project dir). */
export interface ThemeSource {
  readonly directory: string;
  readonly label: string;
}

/**
 * The themes of these folders, the first folder's first: the user's own `themes/`, then those that installed
 * packages carry. A name an earlier folder already has is a warning, and the earlier theme is kept.
 */
export async function loadThemes(sources: readonly ThemeSource[]): Promise<LoadedThemes> {
  const themes: ThemeRecord[] = [];
  const warnings: ThemeWarning[] = [];
  for (const source of sources) {
    const loaded = await loadThemeFiles(source.directory, source.label);
    warnings.push(...loaded.warnings);
    for (const theme of loaded.themes) {
      const earlier = themes.find((kept) => kept.name === theme.name);
      if (earlier === undefined) themes.push(theme);
      else warnings.push({ file: `${source.label}/${theme.name}.json`, message: `"${theme.name}" is already a theme` });
    }
  }
  return { themes, warnings };
}

/**
 * The themes of one folder: every `<name>.json` in it, checked by the theme schema. A broken one is a warning naming
 * its file as `label` says (never its full path or content) and is left out; the others still load. No folder: no
 * themes.
 */
export async function loadThemeFiles(directory: string, label = THEMES_DIRECTORY): Promise<LoadedThemes> {
  let names: string[];
  try {
    names = (await readdir(directory)).filter((name) => name.endsWith('.json')).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { themes: [], warnings: [] };
    return { themes: [], warnings: [{ file: label, message: 'the themes directory cannot be read' }] };
  }
  const themes: ThemeRecord[] = [];
  const warnings: ThemeWarning[] = [];
  if (names.length > MAX_THEME_FILES)
    warnings.push({ file: label, message: `only the first ${MAX_THEME_FILES} theme files are read` });
  for (const file of names.slice(0, MAX_THEME_FILES)) {
    const loaded = await loadThemeFile(directory, file);
    if ('message' in loaded) warnings.push({ file: `${label}/${file}`, message: loaded.message });
    else themes.push(loaded);
  }
  return { themes, warnings };
}

async function loadThemeFile(directory: string, file: string): Promise<ThemeRecord | { message: string }> {
  const name = file.slice(0, -'.json'.length);
  if (!THEME_NAME_PATTERN.test(name))
    return { message: 'a theme name is lower-case letters, digits and dashes (at most 32)' };
  if ((BUILTIN_THEME_NAMES as readonly string[]).includes(name))
    return { message: `"${name}" is a built-in theme; give yours another name` };
  let text: string;
  try {
    text = await readFile(join(directory, file), 'utf8');
  } catch {
    return { message: 'cannot be read' };
  }
  if (text.length > MAX_THEME_FILE_BYTES) return { message: `is larger than ${MAX_THEME_FILE_BYTES / 1024} KiB` };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { message: 'is not valid JSON' };
  }
  const parsed = themeFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? '' : ` at ${issue.path.join('.')}`;
    return { message: `does not match the theme schema${where}: ${issue?.message ?? 'invalid'}` };
  }
  return { name, base: parsed.data.base, styles: parsed.data.styles };
}
