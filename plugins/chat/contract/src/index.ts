export { CHAT_PLUGIN_ID } from './plugin-id';
export {
  CHECKPOINT_EVERY,
  Chat,
  MAX_CLIENT_OPERATION_ID_LENGTH,
  MAX_OPERATION_ID_LENGTH,
  MAX_PROMPT_TEXT_LENGTH,
  OPERATION_STATES,
  PROMPT_REJECTION_CODES,
  operationRequestSchema,
  operationStatusSchema,
  promptRequestSchema,
  promptResponseSchema,
  type ChatService,
  type OperationRequest,
  type OperationState,
  type OperationStatus,
  type PromptRejectionCode,
  type PromptRequest,
  type PromptResponse,
} from './chat-service';
export { chatEventSchema, streamingCheckpointSchema, type ChatEvent, type StreamingCheckpoint } from './chat-events';
export {
  QUEUE_ITEM_KINDS,
  QUEUE_REJECTION_CODES,
  WITHDRAW_ERROR_CODES,
  chatQueueSchema,
  queueItemKindSchema,
  queueResponseSchema,
  type ChatQueue,
  type QueueItemKind,
  type QueueRejectionCode,
  type QueueResponse,
  type QueuedMessage,
  type WithdrawErrorCode,
} from './chat-queue';
export {
  assistantTranscriptEntrySchema,
  runOutcomeKindSchema,
  transcriptEntrySchema,
  transcriptToolCallSchema,
  type AssistantTranscriptEntry,
  type RunOutcomeKind,
  type TranscriptEntry,
  type TranscriptToolCall,
} from './transcript';
export {
  MAX_BRANCH_ID_LENGTH,
  MAX_HISTORY_LIMIT,
  TRANSCRIPT_CHECKPOINT_EVERY,
  TRANSCRIPT_PAGE_CHARS,
  TRANSCRIPT_WINDOW,
  historyPageSchema,
  historyRequestSchema,
  recentTranscriptSchema,
  transcriptHeadSchema,
  type HistoryRequest,
  type TranscriptHead,
  type TranscriptPage,
} from './transcript-window';
export { TranscriptReplica, type TranscriptReplicaOptions, type TranscriptSource } from './transcript-replica';
export { applyChatCheckpoint, applyChatEvent, streamingViewFrom, type StreamingView } from './streaming-view';
