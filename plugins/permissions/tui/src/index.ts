import { permissionsTuiFacet } from './permissions-tui-facet';

export { confirmChoices, decisionOf } from './confirm-choices';
export { confirmInTerminal } from './confirm-dialog';
export { MAX_SUMMARY_ROWS, confirmTitle, confirmView } from './confirm-view';
export { permissionsTuiFacet, pluginId } from './permissions-tui-facet';

/** The TUI host imports the module the contract's "pi" field names and runs its default export. */
export default permissionsTuiFacet;
