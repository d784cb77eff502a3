export { CHAT_PLUGIN_ID } from './plugin-id';
export {
  CHECKPOINT_EVERY,
  Chat,
  MAX_OPERATION_ID_LENGTH,
  MAX_PROMPT_TEXT_LENGTH,
  PROMPT_REJECTION_CODES,
  promptRequestSchema,
  promptResponseSchema,
  type ChatService,
  type PromptRejectionCode,
  type PromptRequest,
  type PromptResponse,
} from './chat-service';
export { chatEventSchema, streamingCheckpointSchema, type ChatEvent, type StreamingCheckpoint } from './chat-events';
export {
  assistantTranscriptEntrySchema,
  chatTranscriptSchema,
  runOutcomeKindSchema,
  transcriptEntrySchema,
  transcriptToolCallSchema,
  type AssistantTranscriptEntry,
  type ChatTranscript,
  type RunOutcomeKind,
  type TranscriptEntry,
  type TranscriptToolCall,
} from './transcript';
export { applyChatCheckpoint, applyChatEvent, streamingViewFrom, type StreamingView } from './streaming-view';
