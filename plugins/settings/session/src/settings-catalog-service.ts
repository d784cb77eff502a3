import type { Context } from '@pi/context';
import { RemoteError, quoteForError, type MutableRemoteState } from '@pi/remote';
import type { SettingsCatalogService, SettingsCatalogState, SettingsStore } from '@pi/settings';
import type { SettingDeclarations } from './setting-declarations';
import { toPreferencesError } from './settings-errors';
import type { LoadedThemes } from './theme-files';

export interface CatalogParts {
  readonly store: SettingsStore;
  readonly declarations: SettingDeclarations;
  readonly themes: () => LoadedThemes;
  /** Re-reads the theme files (and re-declares the theme setting when the names changed). */
  readonly reloadThemes: (context: Context) => Promise<void>;
}

/** The catalog as clients see it: every declaration with its JSON Schema, effective value and layer. */
export function catalogState(parts: CatalogParts): SettingsCatalogState {
  const { themes, warnings: themeWarnings } = parts.themes();
  return {
    settings: parts.declarations.entries(),
    warnings: [...parts.store.snapshot().warnings, ...parts.declarations.warnings()],
    themes,
    themeWarnings,
  };
}

/**
 * The remote settings catalog: writes only declared keys, each checked against its own schema on the server
 * (the wire schema only bounds the size), to the layer the caller names.
 */
export function settingsCatalogService(
  parts: CatalogParts,
  state: MutableRemoteState<SettingsCatalogState>,
): SettingsCatalogService {
  const schemaOf = (key: string) => {
    const schema = parts.declarations.schemaOf(key);
    if (schema === undefined)
      throw new RemoteError('invalid_argument', `${quoteForError(key)} is not a declared setting`);
    return schema;
  };
  const write = async (run: () => Promise<void>) => {
    try {
      await run();
    } catch (error) {
      throw toPreferencesError(error);
    }
  };
  return {
    state,
    async set(key, value, layer, context) {
      const parsed = schemaOf(key).safeParse(value);
      if (!parsed.success)
        throw new RemoteError(
          'invalid_argument',
          `${quoteForError(key)}: ${parsed.error.issues[0]?.message ?? 'invalid value'}`,
        );
      await write(() => parts.store.setLayer(layer, key, parsed.data, context));
    },
    async unset(key, layer, context) {
      schemaOf(key);
      await write(() => parts.store.setLayer(layer, key, undefined, context));
    },
    async reload(context) {
      await parts.reloadThemes(context);
      await parts.store.reload(context);
      state.set(catalogState(parts), context);
    },
  };
}
