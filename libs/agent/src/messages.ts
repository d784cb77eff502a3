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
} from '@pi/agent-contract';
