export type { EntryBase, MessageOrigin, SessionEntry, SessionEntryKind, SessionHeader } from './entries';
export { sessionHeaderSchema } from './session-header';
export {
  MAX_COMPACT_INSTRUCTIONS,
  type CompactOptions,
  type CompactionRejection,
  type CompactionResult,
  type SessionCompaction,
  type SummaryRequest,
} from './compaction';
export type {
  AfterToolHook,
  BeforeModelRequestHook,
  ModelRequestInfo,
  ModelRequestRewrite,
  SessionShutdownHook,
  SessionShutdownInfo,
  SessionStartHook,
  SessionStartInfo,
  ToolCallResult,
  ToolResultRewrite,
} from './hooks';
export type {
  ForkOptions,
  ForkRejection,
  ForkedSession,
  LeafMove,
  NavigationRejection,
  SessionNavigation,
  SessionTreeNode,
  SessionTreePage,
} from './navigation';
export type {
  AbortRejection,
  AgentLane,
  AppendMessageRejection,
  BeforeToolHook,
  HarnessEvent,
  PromptAcceptance,
  PromptOptions,
  PromptRejection,
  PromptTooLarge,
  RunOutcome,
  RunSettings,
  SessionTree,
  ToolCallInfo,
} from './lane';
export type {
  AgentMessage,
  AssistantMessage,
  JsonObject,
  JsonPrimitive,
  JsonValue,
  TextPart,
  ThinkingPart,
  ToolCallPart,
  ToolResultMessage,
  Usage,
  UserMessage,
} from './messages';
export type { ModelCost, ModelProvider, ModelSpec, ProviderEvent, ProviderRequest, ToolSchema } from './provider';
export { THINKING_LEVELS, thinkingLevelSchema, type ThinkingLevel } from './thinking-level';
export {
  providerLoginSchema,
  type AuthorizationCodeLogin,
  type DeviceCodeLogin,
  type ProviderLogin,
} from './provider-login';
export type { AgentTool, AgentToolResult, AnyAgentTool } from './tool';
export { TOOL_CALL_STEP, type ToolCallStep } from './tool-call-step';
export type { SessionFileFault } from './session-file-fault';
export type {
  QueueAcceptance,
  QueueItem,
  QueueItemKind,
  QueueOptions,
  QueueRejection,
  QueueWithdrawReason,
  WithdrawRejection,
} from './queue';
