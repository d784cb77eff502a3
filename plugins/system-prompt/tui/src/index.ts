import { systemPromptTuiFacet } from './system-prompt-tui-facet';

export { systemPromptHeader } from './header-text';
export { pluginId, systemPromptTuiFacet } from './system-prompt-tui-facet';

/** The TUI host imports the module the contract's "pi" field names and runs its default export. */
export default systemPromptTuiFacet;
