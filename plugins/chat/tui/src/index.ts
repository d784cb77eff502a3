import { chatTuiFacet } from './chat-tui-facet';

export { chatTuiFacet } from './chat-tui-facet';
export { entryBlock, streamingBlock } from './entry-blocks';

/** The facet the TUI host loads for @pi/chat (named in the plugin's package.json "pi" field). */
export default chatTuiFacet;
