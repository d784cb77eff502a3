import type { Context } from '@pi/context';
import type { ToolCallInfo } from './lane';
import type { AgentMessage, JsonValue, TextPart } from './messages';
import type { ThinkingLevel } from './thinking-level';

/**
 * Hooks beyond `before_tool` (see docs/decisions.md, "Hooks"). The run-path hooks (`after_tool`,
 * `before_model_request`) compose in manifest order, each seeing what the earlier ones made of the value; a hook
 * that throws, rejects, returns something malformed or misses its deadline is skipped (the value stays as it was)
 * and reported against its plugin. Session start and shutdown are notifications: what they return is ignored.
 */

/** A finished tool call's result as the model would see it, frozen: return a rewrite to change it. */
export interface ToolCallResult {
  readonly content: readonly TextPart[];
  readonly details: JsonValue;
  readonly isError: boolean;
}

/** What `after_tool` may change: any of the three; a key left out keeps the value. No other key is allowed. */
export interface ToolResultRewrite {
  content?: TextPart[];
  details?: JsonValue;
  isError?: boolean;
}

/**
 * `after_tool` runs once per tool call after it produced its result — the harness's error results included
 * (unknown tool, invalid arguments, blocked by `before_tool`) — and before the result is recorded: a rewrite is
 * what the session file, the events and the model see.
 */
export type AfterToolHook = (
  call: ToolCallInfo,
  result: ToolCallResult,
  context: Context,
) => Promise<void | ToolResultRewrite> | void | ToolResultRewrite;

/** One model request of a run, about to be sent. */
export interface ModelRequestInfo {
  readonly operationId: string;
  /** The run's turn, from 0: one request per turn. */
  readonly turn: number;
  readonly model: { readonly provider: string; readonly modelId: string };
  readonly thinkingLevel: ThinkingLevel;
  /** The names of the tools offered with this request. */
  readonly tools: readonly string[];
  /** The system prompt to send, as earlier hooks left it ('' until one sets it: the harness has none of its own). */
  readonly systemPrompt: string;
  /** The messages to send (frozen, and as earlier hooks left them); the session's history is never changed. */
  readonly messages: readonly AgentMessage[];
}

/**
 * What a `before_model_request` hook may replace for one request: the system prompt, the messages, or both; a key
 * left out keeps its value. Messages must be a non-empty list of valid messages.
 */
export interface ModelRequestRewrite {
  systemPrompt?: string;
  messages?: AgentMessage[];
}

/**
 * `before_model_request` may replace the system prompt and the messages sent with this one request (for example
 * to put instructions or context in front); nothing is recorded.
 */
export type BeforeModelRequestHook = (
  request: ModelRequestInfo,
  context: Context,
) => Promise<void | ModelRequestRewrite> | void | ModelRequestRewrite;

export interface SessionStartInfo {
  readonly sessionId: string;
  /** True when this start created the session file; false when it restored an existing one. */
  readonly created: boolean;
  /** What restoring repaired (a torn last line, operations a crash left unsettled), in words for a person. */
  readonly recovery: readonly string[];
}

/** Called once the session host has started (every facet activated), before any client can connect. */
export type SessionStartHook = (info: SessionStartInfo, context: Context) => Promise<void> | void;

export interface SessionShutdownInfo {
  readonly sessionId: string;
}

/**
 * Called once when the session host stops, after client connections closed and before any facet is disposed;
 * the session is still open. Its context's signal fires at the shutdown deadline.
 */
export type SessionShutdownHook = (info: SessionShutdownInfo, context: Context) => Promise<void> | void;
