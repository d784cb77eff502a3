export { openHarness } from './open-harness';
export { DEFAULT_MAX_TURNS } from './max-turns';
export { DEFAULT_MODEL_WAIT_NOTICE_MS } from './model-silence';
export { MAX_COMPACT_INSTRUCTIONS } from '@pi/agent-contract';
export { MAX_QUEUE_CHARS, MAX_QUEUE_ITEMS } from './message-queue';
export { isValidClientOperationId, MAX_CLIENT_OPERATION_ID_LENGTH } from './client-operations';
export { isValidSessionId, sessionFilePath, type SessionIdError } from './session-id';
export type { AgentHarness, HarnessEvents, HarnessOptions, Hooks, OpenError } from './harness-types';
export type { AppendHandle } from './append-handle';
export type { CustomEntry, EntryProjection } from './context-window';
export { SessionFileUnwritable, isSessionFileUnwritable, sessionFileFault } from './session-file-fault';
export { callHook, type HookOutcome } from './hook-call';
export { CHARS_PER_TOKEN, estimateTokens } from './token-estimate';
export { COMPACT_AT_RATIO, DEFAULT_KEEP_TOKENS, KEEP_RATIO } from './compaction-plan';
export { SUMMARY_SYSTEM_PROMPT, conversationText, summaryPrompt } from './summary-prompt';
export { DEFAULT_HOOK_TIMEOUT_MS, type HookFailure, type HookPolicy, type RunHookName } from './hook-caller';
export { OrderedHooks, type OwnedHook } from './ordered-hooks';
// The agent's contract types, so that users of the harness need one import.
export type {
  AbortRejection,
  AfterToolHook,
  AgentLane,
  AgentMessage,
  AgentTool,
  AgentToolResult,
  AnyAgentTool,
  AppendMessageRejection,
  AssistantMessage,
  BeforeModelRequestHook,
  BeforeToolHook,
  CompactOptions,
  CompactionRejection,
  CompactionResult,
  EntryBase,
  ForkOptions,
  ForkRejection,
  ForkedSession,
  HarnessEvent,
  JsonObject,
  JsonPrimitive,
  JsonValue,
  ModelRequestInfo,
  ModelRequestRewrite,
  LeafMove,
  MessageOrigin,
  NavigationRejection,
  PromptAcceptance,
  PromptOptions,
  PromptRejection,
  PromptTooLarge,
  RunOutcome,
  RunSettings,
  SessionCompaction,
  SessionEntry,
  SessionEntryKind,
  SessionFileFault,
  SessionHeader,
  SessionShutdownHook,
  SessionShutdownInfo,
  SessionStartHook,
  SessionStartInfo,
  SessionNavigation,
  QueueAcceptance,
  QueueItem,
  QueueItemKind,
  QueueOptions,
  QueueRejection,
  QueueWithdrawReason,
  SessionTree,
  SessionTreeNode,
  SessionTreePage,
  SummaryRequest,
  TextPart,
  ThinkingPart,
  ToolCallInfo,
  ToolCallPart,
  ToolCallResult,
  ToolResultMessage,
  ToolResultRewrite,
  Usage,
  UserMessage,
  WithdrawRejection,
} from '@pi/agent-contract';
export { TOOL_CALL_STEP, type ToolCallStep } from '@pi/agent-contract';
export {
  providerLoginSchema,
  type AuthorizationCodeLogin,
  type DeviceCodeLogin,
  type ProviderLogin,
} from '@pi/agent-contract';
export {
  ProviderError,
  type ModelProvider,
  type ModelCost,
  type ModelSpec,
  type ProviderEvent,
  type ProviderRequest,
  type ThinkingLevel,
  type ToolSchema,
} from './provider';
