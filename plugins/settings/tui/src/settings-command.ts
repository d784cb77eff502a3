import type { CodingAgentTuiPluginContext, Context, JsonValue } from '@pi/plugin-api';
import { SettingsCatalog, type SettingEntry, type SettingsCatalogService } from '@pi/settings';
import { LAYER_CHOICES, optionLabels, settingLines, warningLines } from './settings-list';
import { formatValue, parseTyped, valueKind } from './value-kind';

export const SETTINGS_COMMAND_ID = 'settings.open';

/**
 * `/settings`: every declared setting, grouped by plugin, with its effective value and layer; choosing one edits
 * it by its schema (a choice for enums and booleans, typed text for numbers, strings and JSON) and asks which
 * layer to write. The session checks the value; a refusal is shown, nothing is thrown at the host.
 */
export function registerSettingsCommand(context: CodingAgentTuiPluginContext): void {
  const { ui } = context;

  const edit = async (catalog: SettingsCatalogService, callContext: Context) => {
    // Hand edits of the files and new theme files show up when the list opens.
    await catalog.reload(callContext);
    const state = catalog.state.value;
    if (state.settings.length === 0) return ui.notify('No plugin declares a setting', 'info');
    const lines = settingLines(state);
    const warnings = warningLines(state);
    const chosen = await ui.select('Settings', lines, {
      signal: callContext.abortSignal,
      body: { render: () => warnings.map((line) => ui.theme.fg('warning', line)) },
    });
    const setting = chosen === undefined ? undefined : state.settings[lines.indexOf(chosen)];
    if (setting === undefined) return;
    const value = await askValue(setting, callContext);
    if (value === undefined) return;
    const layerLabel = await ui.select(
      `Save ${setting.key} = ${formatValue(value)} to`,
      LAYER_CHOICES.map((c) => c.label),
      {
        signal: callContext.abortSignal,
      },
    );
    const layer = LAYER_CHOICES.find((choice) => choice.label === layerLabel)?.layer;
    if (layer === undefined) return;
    await catalog.set(setting.key, value, layer, callContext);
    ui.notify(`${setting.key} = ${formatValue(value)} (${layer})`, 'info');
  };

  const askValue = async (setting: SettingEntry, callContext: Context): Promise<JsonValue | undefined> => {
    const kind = valueKind(setting.schema);
    const title = `${setting.key} — ${setting.description}`;
    if (kind.kind === 'choice') {
      const labels = optionLabels(setting, kind.options);
      const picked = await ui.select(title, labels, { signal: callContext.abortSignal });
      return picked === undefined ? undefined : kind.options[labels.indexOf(picked)];
    }
    const current = kind.kind === 'json' ? JSON.stringify(setting.value) : formatValue(setting.value);
    const typed = await ui.input(title, current, { signal: callContext.abortSignal });
    if (typed === undefined) return undefined;
    const parsed = parseTyped(kind, typed);
    if ('problem' in parsed) {
      ui.notify(`${setting.key} not changed: ${parsed.problem}`, 'warning');
      return undefined;
    }
    return parsed.value;
  };

  context.commands.register({
    id: SETTINGS_COMMAND_ID,
    slash: 'settings',
    description: 'Show every setting with its value and layer, and change one (for this session, you, or the project)',
    needsSession: true,
    async run(_args, callContext) {
      try {
        await edit(await context.use(SettingsCatalog), callContext);
      } catch (failure) {
        ui.notify(`Settings not changed: ${failure instanceof Error ? failure.message : String(failure)}`, 'error');
      }
    },
  });
}
