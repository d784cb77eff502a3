import { accountsTuiFacet } from './accounts-tui-facet';

export { accountsTuiFacet, pluginId } from './accounts-tui-facet';

/** The TUI host imports the module the contract's "pi" field names and runs its default export. */
export default accountsTuiFacet;
