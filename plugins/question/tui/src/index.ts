import { questionTuiFacet } from './question-tui-facet';

export { TYPE_SOMETHING, questionChoices } from './question-choices';
export { askInTerminal } from './question-dialog';
export { questionRenderer } from './question-renderer';
export { pluginId, questionTuiFacet } from './question-tui-facet';

/** The TUI host imports the module the contract's "pi" field names and runs its default export. */
export default questionTuiFacet;
