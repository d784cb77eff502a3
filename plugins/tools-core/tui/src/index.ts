import { toolsCoreTuiFacet } from './tools-core-tui-facet';

export { BASH_COLLAPSED_LINES, bashRenderer } from './bash-renderer';
export { DIFF_COLLAPSED_LINES, diffLines, fileChangeRenderer } from './diff-renderer';
export { LISTING_COLLAPSED_LINES, listingRenderer } from './listing-renderer';
export { READ_COLLAPSED_LINES, readRenderer } from './read-renderer';
export { CORE_TOOL_RENDERERS, pluginId, toolsCoreTuiFacet } from './tools-core-tui-facet';

/** The TUI host imports the module the contract's "pi" field names and runs its default export. */
export default toolsCoreTuiFacet;
