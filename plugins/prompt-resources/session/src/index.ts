import { createPromptResourcesFacet } from './prompt-resources-facet';

export { PROMPT_RESOURCES_PLUGIN_ID as pluginId } from '@pi/prompt-resources';
export { createPromptResourcesFacet, READ_TOOL, type PromptResourcesFacetOptions } from './prompt-resources-facet';
export type { PackageResourceDirectories } from './resource-locations';

/** The session host imports the module the contract's "pi" field names and runs its default export. */
export default createPromptResourcesFacet();
