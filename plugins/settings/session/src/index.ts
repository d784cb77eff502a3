import type { SessionFacet } from '@pi/plugin-api';
import { SETTINGS_PLUGIN_ID } from '@pi/settings';
import { settingsSessionFacet } from './settings-facet';

/** The manifest id this facet answers to. */
export const pluginId = SETTINGS_PLUGIN_ID;

export { BUILTIN_DEFAULTS } from './builtin-defaults';
export { PROJECT_SETTINGS_FILE, USER_SETTINGS_FILE, settingsSessionFacet } from './settings-facet';
export { openSettingsStore, type SettingsFiles } from './settings-store';

/** The facet a session host resolves for @pi/settings. */
export const sessionFacet: SessionFacet = settingsSessionFacet;

export default sessionFacet;
