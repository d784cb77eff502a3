import { questionTuiFacet } from './question-tui-facet';

export { TYPE_SOMETHING, questionChoices } from './question-choices';
export { questionRenderer } from './question-renderer';
export { questionWidget } from './question-widget';
export { pluginId, questionTuiFacet } from './question-tui-facet';

/** The TUI host imports the module the contract's "pi" field names and runs its default export. */
export default questionTuiFacet;
