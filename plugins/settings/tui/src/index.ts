import { settingsTuiFacet } from './settings-tui-facet';

export { SETTINGS_COMMAND_ID } from './settings-command';
export { chosenTheme } from './theme-choice';
export { pluginId, settingsTuiFacet } from './settings-tui-facet';

/** The TUI host imports the module the contract's "pi" field names and runs its default export. */
export default settingsTuiFacet;
