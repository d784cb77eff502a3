import { gitTuiFacet } from './git-tui-facet';

export { BRANCH_SIGN, DIRTY_MARK, gitFooterLine } from './footer-text';
export { gitTuiFacet, pluginId } from './git-tui-facet';

/** The TUI host imports the module the contract's "pi" field names and runs its default export. */
export default gitTuiFacet;
