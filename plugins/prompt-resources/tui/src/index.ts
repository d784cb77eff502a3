import { promptResourcesTuiFacet } from './prompt-resources-tui-facet';

export { pluginId, promptResourcesTuiFacet } from './prompt-resources-tui-facet';
export { resourceCommands, type ResourceCommand } from './resource-commands';

/** The TUI imports the module the contract's "pi" field names and runs its default export. */
export default promptResourcesTuiFacet;
