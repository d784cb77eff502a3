import type { AgentMessage, JsonObject, ModelSpec, ProviderRequest, ThinkingLevel, ToolSchema } from '@pi/agent';

/** Marks the end of a prefix Anthropic may cache (system prompt, tool list, conversation so far). */
type CacheControl = { type: 'ephemeral' };

export type AnthropicBlock =
  | { type: 'text'; text: string; cache_control?: CacheControl }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input: JsonObject }
  | { type: 'tool_result'; tool_use_id: string; content?: string; is_error?: boolean; cache_control?: CacheControl };

export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: AnthropicBlock[];
}

export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: JsonObject;
  cache_control?: CacheControl;
}

/** The JSON body of `POST /v1/messages` for one streamed turn (the fields pi sends). */
export interface AnthropicMessagesBody {
  model: string;
  max_tokens: number;
  stream: true;
  system?: Array<{ type: 'text'; text: string; cache_control: CacheControl }>;
  messages: AnthropicMessage[];
  tools?: AnthropicTool[];
  thinking?: { type: 'enabled'; budget_tokens: number };
}

/** What a model may spend on reasoning at each thinking level (Anthropic's minimum budget is 1,024). */
export const THINKING_BUDGETS: Readonly<Record<Exclude<ThinkingLevel, 'off'>, number>> = Object.freeze({
  low: 4_000,
  high: 16_000,
});

/** The answer's length when the catalogue does not say (every current Claude model allows at least this). */
export const DEFAULT_MAX_OUTPUT_TOKENS = 8_192;

const EPHEMERAL: CacheControl = { type: 'ephemeral' };

/**
 * The Messages API body for one turn. The system prompt, the tool list and the conversation up to its last message
 * each end in a cache breakpoint, so the next turn of a run reads them from the prompt cache.
 */
export function anthropicMessagesBody(request: ProviderRequest, model: ModelSpec): AnthropicMessagesBody {
  const thinking =
    model.reasoning && request.thinkingLevel !== 'off' ? THINKING_BUDGETS[request.thinkingLevel] : undefined;
  const maxOutput = model.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
  const body: AnthropicMessagesBody = {
    model: model.modelId,
    // A budget must leave room for the answer itself.
    max_tokens: thinking === undefined ? maxOutput : Math.max(maxOutput, thinking + DEFAULT_MAX_OUTPUT_TOKENS),
    stream: true,
    messages: toAnthropicMessages(request.messages, model.provider),
  };
  if (request.systemPrompt) body.system = [{ type: 'text', text: request.systemPrompt, cache_control: EPHEMERAL }];
  if (request.tools.length > 0) body.tools = request.tools.map(toAnthropicTool);
  const lastTool = body.tools?.at(-1);
  if (lastTool !== undefined) lastTool.cache_control = EPHEMERAL;
  const lastBlock = body.messages.at(-1)?.content.at(-1);
  if (lastBlock?.type === 'text' || lastBlock?.type === 'tool_result') lastBlock.cache_control = EPHEMERAL;
  if (thinking !== undefined) body.thinking = { type: 'enabled', budget_tokens: thinking };
  return body;
}

/**
 * Agent messages as Messages API turns: tool results become `tool_result` blocks of a user turn, and consecutive
 * user-side messages share one turn (the API alternates roles). Reasoning goes back only to the provider that
 * signed it; empty text is dropped (the API refuses empty text blocks), and so is a turn left with nothing.
 */
export function toAnthropicMessages(messages: readonly AgentMessage[], providerId: string): AnthropicMessage[] {
  const turns: AnthropicMessage[] = [];
  const add = (role: AnthropicMessage['role'], blocks: AnthropicBlock[]) => {
    if (blocks.length === 0) return;
    const last = turns.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        add(
          'user',
          message.content.filter((part) => part.text !== '').map((part) => ({ type: 'text', text: part.text })),
        );
        break;
      case 'assistant': {
        const own = message.model.startsWith(`${providerId}/`);
        const blocks: AnthropicBlock[] = [];
        for (const part of message.content) {
          if (part.type === 'text' && part.text !== '') blocks.push({ type: 'text', text: part.text });
          else if (part.type === 'tool_call')
            blocks.push({ type: 'tool_use', id: part.id, name: part.name, input: part.arguments });
          else if (part.type === 'thinking' && own && part.signature !== undefined)
            blocks.push(
              part.redacted === true
                ? { type: 'redacted_thinking', data: part.signature }
                : { type: 'thinking', thinking: part.text, signature: part.signature },
            );
        }
        add('assistant', blocks);
        break;
      }
      case 'tool': {
        const text = message.content.map((part) => part.text).join('\n');
        add('user', [
          {
            type: 'tool_result',
            tool_use_id: message.toolCallId,
            ...(text === '' ? {} : { content: text }),
            ...(message.isError ? { is_error: true } : {}),
          },
        ]);
        break;
      }
    }
  }
  return turns;
}

function toAnthropicTool(tool: ToolSchema): AnthropicTool {
  return { name: tool.name, description: tool.description, input_schema: tool.parameters };
}
