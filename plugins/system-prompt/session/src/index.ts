import { SYSTEM_PROMPT_PLUGIN_ID } from '@pi/system-prompt';
import type { SessionFacet } from '@pi/plugin-api';
import { createSystemPromptFacet } from './system-prompt-facet';

/** The manifest id this facet answers to. */
export const pluginId = SYSTEM_PROMPT_PLUGIN_ID;

export { composeSystemPrompt, type PromptEnvironment } from './compose-prompt';
export { defaultSystemPrompt, summaryOf, type PromptTool } from './default-prompt';
export { CONTEXT_FILE_NAMES, contextDirectories, readPromptFiles } from './prompt-files';
export { CONTEXT_FILES_SETTING, createSystemPromptFacet, type SystemPromptFacetOptions } from './system-prompt-facet';

/** The session facet of @pi/system-prompt with the real clock, home directory and platform. */
export const systemPromptSessionFacet: SessionFacet = createSystemPromptFacet();

/** The session host imports the module the contract's "pi" field names and runs its default export. */
export default systemPromptSessionFacet;
