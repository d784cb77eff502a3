export { SYSTEM_PROMPT_PLUGIN_ID } from './plugin';
export {
  EMPTY_SYSTEM_PROMPT_STATUS,
  MAX_PROMPT_FILE_BYTES,
  MAX_PROMPT_WARNING_LENGTH,
  SystemPrompt,
  promptFileSchema,
  systemPromptStatusSchema,
  type PromptFile,
  type SystemPromptService,
  type SystemPromptStatus,
} from './system-prompt-service';
