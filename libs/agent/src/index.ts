export { openHarness } from './open-harness';
export { DEFAULT_MAX_TURNS } from './main-lane';
export { isValidClientOperationId, MAX_CLIENT_OPERATION_ID_LENGTH } from './client-operations';
export { isValidSessionId, sessionFilePath, type SessionIdError } from './session-id';
export type { AgentHarness, HarnessEvents, HarnessOptions, Hooks, OpenError } from './harness-types';
// The agent's contract types, so that users of the harness need one import.
export type {
  AbortRejection,
  AgentLane,
  AgentMessage,
  AgentTool,
  AgentToolResult,
  AnyAgentTool,
  AssistantMessage,
  BeforeToolHook,
  EntryBase,
  ForkOptions,
  ForkRejection,
  ForkedSession,
  HarnessEvent,
  JsonObject,
  JsonPrimitive,
  JsonValue,
  LeafMove,
  NavigationRejection,
  PromptAcceptance,
  PromptOptions,
  PromptRejection,
  RunOutcome,
  RunSettings,
  SessionEntry,
  SessionEntryKind,
  SessionHeader,
  SessionNavigation,
  SessionTree,
  SessionTreeNode,
  SessionTreePage,
  TextPart,
  ToolCallInfo,
  ToolCallPart,
  ToolResultMessage,
  UserMessage,
} from '@pi/agent-contract';
export {
  ProviderError,
  type ModelProvider,
  type ModelSpec,
  type ProviderEvent,
  type ProviderRequest,
  type ThinkingLevel,
  type ToolSchema,
} from './provider';
