import type { Context } from '@pi/context';
import type { SummaryRequest } from './compaction';
import type { AgentMessage, JsonObject, Usage } from './messages';
import type { ProviderLogin } from './provider-login';
import type { ThinkingLevel } from './thinking-level';

export interface ModelSpec {
  provider: string;
  modelId: string;
  name: string;
  reasoning: boolean;
  /** How many tokens a request may hold (prompt and answer); unknown when absent (no automatic compaction). */
  contextWindow?: number;
  /** Whether the model reads images in a prompt (the catalogue's word: pi's prompts carry text only so far). */
  images?: boolean;
  /** The longest answer the model may write, in tokens, when known. */
  maxOutputTokens?: number;
  /** What a million tokens cost, in US dollars, when known. */
  cost?: ModelCost;
}

/** Prices per million tokens, in US dollars: prompt, answer, prompt read from and written to the cache. */
export interface ModelCost {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** What a provider is told about a tool: its name, description and JSON schema of its arguments. */
export interface ToolSchema {
  name: string;
  description: string;
  parameters: JsonObject;
}

export interface ProviderRequest {
  modelId: string;
  /** The instructions sent before the messages (a provider's system message); absent or '' sends none. */
  systemPrompt?: string;
  messages: readonly AgentMessage[];
  tools: readonly ToolSchema[];
  thinkingLevel: ThinkingLevel;
}

/**
 * A streamed model answer: text deltas, complete reasoning blocks and tool calls in the order the model produced
 * them, the request's token usage when the provider reports it, then exactly one `done`.
 */
export type ProviderEvent =
  | { type: 'text_delta'; delta: string }
  | { type: 'thinking'; text: string; signature?: string; redacted?: boolean }
  | { type: 'tool_call'; id: string; name: string; arguments: JsonObject; signature?: string }
  | { type: 'usage'; usage: Usage }
  | { type: 'done'; stopReason: 'stop' | 'tool_calls' | 'length' };

/**
 * A live model provider (process-local, never serialized). `stream` honours `context.abortSignal`; a failure
 * (HTTP error status, dropped stream, malformed data) rejects the iteration with a ProviderError.
 */
export interface ModelProvider {
  readonly id: string;
  readonly name: string;
  /** How a person signs in instead of typing a key, for a provider that offers it. */
  readonly login?: ProviderLogin;
  models(): readonly ModelSpec[];
  stream(request: ProviderRequest, context: Context): AsyncIterable<ProviderEvent>;
  /**
   * Writes the summary a compaction records (see SummaryRequest), honouring `context.abortSignal` and failing with
   * a ProviderError like `stream`. Optional: without it the harness asks `stream` with its own summary prompt.
   */
  summarize?(request: SummaryRequest, context: Context): Promise<string>;
}
