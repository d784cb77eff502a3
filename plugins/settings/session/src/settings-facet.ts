import { dirname, join } from 'node:path';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { SettingsBackendService, type CodingAgentSessionPluginContext } from '@pi/plugin-api';
import { RemoteError, checkJson, quoteForError, type JsonObject } from '@pi/remote';
import { z } from 'zod';
import {
  EDITOR_SETTING,
  PREFERENCE_KEYS,
  Preferences,
  Settings,
  SettingsCatalog,
  isPreferenceKey,
  preferenceSchemas,
  type PreferencesState,
  type SettingsCatalogState,
  type SettingsStore,
} from '@pi/settings';
import { BUILTIN_DEFAULTS } from './builtin-defaults';
import { watchFiles } from './file-watch';
import { deepMerge, isJsonObject } from './json-object';
import { projectPreferences } from './preferences-projection';
import { SettingDeclarations } from './setting-declarations';
import { catalogState, settingsCatalogService, type CatalogParts } from './settings-catalog-service';
import { toPreferencesError } from './settings-errors';
import { openSettingsStore } from './settings-store';
import { ThemeSetting } from './theme-setting';
import { THEMES_DIRECTORY } from './theme-files';
import { themeSources } from './theme-sources';

export const USER_SETTINGS_FILE = 'settings.json';
export const PROJECT_SETTINGS_FILE = join('.pi', 'settings.json');

/**
 * The session facet of @pi/settings. Setup reads the layers and the theme files before it returns, so every
 * other facet can declare and read settings synchronously from its own setup on. It provides the declarations
 * backend behind `context.settings` and the full Settings service locally, and the settings catalog and the
 * Preferences façade remotely; both states follow every change.
 */
export async function settingsSessionFacet(context: CodingAgentSessionPluginContext): Promise<void> {
  const defaults = deepMerge(BUILTIN_DEFAULTS, manifestDefaults(context.config));
  const store = await openSettingsStore(
    defaults,
    {
      user: join(context.paths.configDir, USER_SETTINGS_FILE),
      project: join(context.paths.cwd, PROJECT_SETTINGS_FILE),
      session: sessionSettingsFile(context.paths.sessionFile),
    },
    BACKGROUND_CONTEXT,
  );
  const declarations = new SettingDeclarations(store, () => undefined);
  context.provide(SettingsBackendService, declarations);
  declarePreferences(context);
  const theme = new ThemeSetting(declarations, context.pluginId, () =>
    themeSources(context.paths.configDir, context.paths.cwd),
  );
  await theme.reload(BACKGROUND_CONTEXT);
  context.own(() => theme.remove());

  const parts: CatalogParts = {
    store,
    declarations,
    themes: () => theme.themes(),
    reloadThemes: (reloadContext) => theme.reload(reloadContext),
  };
  const preferences = () =>
    projectPreferences(
      {
        values: withDeclaredValues(store, declarations),
        warnings: catalogState(parts).warnings.map(({ layer, message }) => ({ layer, message })),
      },
      (key) => store.sourceOf(key),
    );
  const catalog = context.remoteState<SettingsCatalogState>(catalogState(parts));
  const catalogService = settingsCatalogService(parts, catalog);
  const preferencesState = context.remoteState<PreferencesState>(preferences());
  // Each warning (a value that breaks its schema, a broken theme file) also reaches the session's diagnostics, once.
  const reported = new Set<string>();
  const reportWarnings = (warnings: SettingsCatalogState['warnings']) => {
    for (const { message } of warnings) {
      if (reported.has(message)) continue;
      reported.add(message);
      context.diagnostics.report('warning', message);
    }
  };
  reportWarnings(catalog.value.warnings);
  context.own(store.onChange((_snapshot, changeContext) => declarations.refresh(changeContext)));
  context.own(
    declarations.onCatalogChange((changeContext) => {
      catalog.set(catalogState(parts), changeContext);
      preferencesState.set(preferences(), changeContext);
      reportWarnings(catalog.value.warnings);
    }),
  );

  // A hand edit of a settings or theme file applies at once, in every client.
  const reload = () => void catalogService.reload(BACKGROUND_CONTEXT).catch(() => undefined);
  context.own(
    watchFiles(
      [
        { directory: context.paths.configDir, files: [USER_SETTINGS_FILE] },
        { directory: dirname(join(context.paths.cwd, PROJECT_SETTINGS_FILE)), files: [USER_SETTINGS_FILE] },
        { directory: join(context.paths.configDir, THEMES_DIRECTORY) },
      ],
      reload,
    ),
  );

  context.provide(Settings, declaredStore(store, declarations));
  context.provide(SettingsCatalog, catalogService);
  context.provide(Preferences, {
    state: preferencesState,
    async set(key, value, callContext) {
      // The wire schema already allowlists the key; checked again here because authorization is the server's job.
      if (!isPreferenceKey(key))
        throw new RemoteError('invalid_argument', `Only ${PREFERENCE_KEYS.join(', ')} can be set remotely`);
      const parsed = preferenceSchemas[key].safeParse(value);
      if (!parsed.success)
        throw new RemoteError(
          'invalid_argument',
          `${quoteForError(key)}: ${parsed.error.issues[0]?.message ?? 'invalid value'}`,
        );
      try {
        await store.setUser(key, parsed.data, callContext);
      } catch (error) {
        throw toPreferencesError(error);
      }
    },
  });
}

/** The model preferences are declared here, where the Preferences façade has always kept them. */
function declarePreferences(context: CodingAgentSessionPluginContext): void {
  context.settings.declare('defaultModel', {
    schema: preferenceSchemas.defaultModel,
    default: BUILTIN_DEFAULTS.defaultModel,
    description: "The model a new session starts with (null: the providers' own first model)",
  });
  context.settings.declare('defaultThinkingLevel', {
    schema: preferenceSchemas.defaultThinkingLevel,
    default: BUILTIN_DEFAULTS.defaultThinkingLevel,
    description: 'The thinking level a new session starts with',
  });
  // The exclusive editor slot's choice: every TUI reads it from the catalog (see the TUI facet).
  context.settings.declare(EDITOR_SETTING, {
    schema: z.string().max(214),
    default: '',
    description: "The prompt editor: the id of a TUI plugin that contributes one, or empty for pi's own",
  });
}

/** The merged values with every declared key at its effective (schema-checked) value. */
function withDeclaredValues(store: SettingsStore, declarations: SettingDeclarations): JsonObject {
  const values: JsonObject = { ...store.snapshot().values };
  for (const key of PREFERENCE_KEYS) {
    const value = declarations.valueOf(key);
    if (value !== undefined) values[key] = value;
  }
  return values;
}

/** The local Settings service: a declared key reads as its effective value, any other as the merged layers. */
function declaredStore(store: SettingsStore, declarations: SettingDeclarations): SettingsStore {
  return {
    ...store,
    get: (key) => (declarations.has(key) ? declarations.valueOf(key) : store.get(key)),
  };
}

/** The session layer's file, beside the session file as the host keeps durable views. */
export function sessionSettingsFile(sessionFile: string): string {
  return `${sessionFile}.settings.json`;
}

/** The manifest entry may set defaults for a deployment: `{ "defaults": { ... } }`. */
function manifestDefaults(config: CodingAgentSessionPluginContext['config']): JsonObject {
  if (config === null) return {};
  const checked = checkJson(config);
  if (checked.isOk() && isJsonObject(checked.value)) {
    const defaults = checked.value['defaults'];
    if (defaults === undefined) return {};
    if (isJsonObject(defaults)) return defaults;
  }
  throw new Error('The @pi/settings manifest config must be { "defaults": { ... } }');
}
