import { providersBuiltinTuiFacet } from './providers-tui-facet';

export { MODEL_COMMANDS } from './model-commands';
export { pluginId, providersBuiltinTuiFacet } from './providers-tui-facet';

/** The TUI host imports the module the contract's "pi" field names and runs its default export. */
export default providersBuiltinTuiFacet;
