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
  /** What the provider that made the call needs back with it (Gemini's thought signature); opaque. */
  signature?: string;
}

/**
 * The model's reasoning before it answered, kept so it can be sent back: a provider that signs its reasoning
 * (Anthropic) refuses a tool-use continuation without the signed block.
 */
export interface ThinkingPart {
  type: 'thinking';
  /** The reasoning as it streamed ('' when the provider sent it encrypted). */
  text: string;
  /** What the provider needs to accept the block back (a signature, or the encrypted reasoning); opaque. */
  signature?: string;
  /** True when the provider sent the reasoning encrypted (`signature` then holds it). */
  redacted?: boolean;
}

/** Tokens one model request used, as the provider counted them. */
export interface Usage {
  /** Prompt tokens read without the cache. */
  input: number;
  output: number;
  /** Prompt tokens read from the provider's prompt cache. */
  cacheRead: number;
  /** Prompt tokens written to the provider's prompt cache. */
  cacheWrite: number;
  /** What the request cost in US dollars, from the model's catalogue prices; absent when they are not known. */
  cost?: number;
}

export interface UserMessage {
  role: 'user';
  content: TextPart[];
}

export interface AssistantMessage {
  role: 'assistant';
  content: Array<TextPart | ThinkingPart | ToolCallPart>;
  /** Which model produced it, as `provider/modelId`. */
  model: string;
  stopReason: 'stop' | 'tool_calls' | 'length' | 'aborted' | 'error';
  /** The tokens the request that produced it used, when the provider reported them. */
  usage?: Usage;
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
