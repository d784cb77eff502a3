import type { JsonObject, JsonValue } from '@pi/json';

/** Strict-JSON message shapes: what the model sees and what the session stores. */
export type { JsonObject, JsonPrimitive, JsonValue } from '@pi/json';

export interface TextPart {
  type: 'text';
  text: string;
}

export interface ToolCallPart {
  type: 'tool_call';
  /** Unique within the run; ties the call to its result. */
  id: string;
  name: string;
  arguments: JsonObject;
}

export interface UserMessage {
  role: 'user';
  content: TextPart[];
}

export interface AssistantMessage {
  role: 'assistant';
  content: Array<TextPart | ToolCallPart>;
  /** Which model produced it, as `provider/modelId`. */
  model: string;
  stopReason: 'stop' | 'tool_calls' | 'length' | 'aborted' | 'error';
}

export interface ToolResultMessage {
  role: 'tool';
  toolCallId: string;
  toolName: string;
  content: TextPart[];
  /** Structured, JSON-safe details for renderers (for example the question tool's answer). */
  details: JsonValue;
  isError: boolean;
}

export type AgentMessage = UserMessage | AssistantMessage | ToolResultMessage;
