export { openHarness } from './open-harness';
export { DEFAULT_MAX_TURNS } from './main-lane';
export { isValidSessionId, sessionFilePath, type SessionIdError } from './session-id';
export type { EntryBase, SessionEntry, SessionEntryKind, SessionHeader } from './entries';
export type {
  AbortRejection,
  AgentHarness,
  AgentLane,
  BeforeToolHook,
  HarnessEvent,
  HarnessEvents,
  HarnessOptions,
  Hooks,
  OpenError,
  PromptRejection,
  RunOutcome,
  RunSettings,
  SessionTree,
  ToolCallInfo,
} from './harness-types';
export type {
  AgentMessage,
  AssistantMessage,
  JsonObject,
  JsonPrimitive,
  JsonValue,
  TextPart,
  ToolCallPart,
  ToolResultMessage,
  UserMessage,
} from './messages';
export {
  ProviderError,
  type ModelProvider,
  type ModelSpec,
  type ProviderEvent,
  type ProviderRequest,
  type ThinkingLevel,
  type ToolSchema,
} from './provider';
export type { AgentTool, AgentToolResult, AnyAgentTool } from './tool';
