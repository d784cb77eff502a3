import { followState, type CodingAgentTuiPluginContext } from '@pi/plugin-api';
import { EDITOR_SETTING, SETTINGS_PLUGIN_ID, SettingsCatalog, type SettingsCatalogState } from '@pi/settings';
import { registerSettingsCommand } from './settings-command';
import { warningLines } from './settings-list';
import { chosenTheme } from './theme-choice';

export const pluginId = SETTINGS_PLUGIN_ID;

/**
 * The TUI facet of @pi/settings: applies the `theme` and `editor` settings to this terminal whenever the session's
 * catalog changes (so a change made in another TUI repaints this one), tells each new warning once (a bad value, a broken
 * theme file), and adds `/settings` (the settings panel).
 */
export function settingsTuiFacet(context: CodingAgentTuiPluginContext): void {
  const { ui } = context;
  let applied = '';
  let editor: string | undefined;
  const told = new Set<string>();
  const follow = (state: SettingsCatalogState) => {
    // An open settings panel shows the new values (the host coalesces repaints into one frame).
    ui.requestRender();
    const chosen = state.settings.find((setting) => setting.key === EDITOR_SETTING)?.value;
    const editorOwner = typeof chosen === 'string' ? chosen : '';
    if (editorOwner !== editor) {
      editor = editorOwner;
      ui.chooseEditor(editorOwner);
    }
    const { theme, problem } = chosenTheme(state);
    const fingerprint = JSON.stringify(theme);
    if (fingerprint !== applied) {
      applied = fingerprint;
      ui.setTheme(theme);
    }
    for (const line of problem === undefined ? warningLines(state) : [problem, ...warningLines(state)]) {
      if (told.has(line)) continue;
      told.add(line);
      ui.notify(line, 'warning');
    }
  };
  const catalog = followState(context, SettingsCatalog, (service) => service.state, follow);
  registerSettingsCommand(context, catalog);
}
