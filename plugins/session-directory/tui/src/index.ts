import { sessionDirectoryTuiFacet } from './session-tui-facet';

export { NEW_SESSION_ROW, NO_COORDINATOR, REMOVE_SESSION_ROW, SESSION_COMMANDS } from './session-commands';
export { pluginId, sessionDirectoryTuiFacet } from './session-tui-facet';

/** The TUI host imports the module the contract's "pi" field names and runs its default export. */
export default sessionDirectoryTuiFacet;
