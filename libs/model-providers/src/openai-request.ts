import type { AgentMessage, JsonObject, ModelSpec, ProviderRequest, TextPart, ToolSchema } from '@pi/agent';

/** The OpenAI chat-completions message shapes this provider sends. */
export type OpenAIMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: OpenAIToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface OpenAIToolCall {
  id: string;
  type: 'function';
  /** OpenAI sends and expects the arguments as a JSON string, not an object. */
  function: { name: string; arguments: string };
}

export interface OpenAITool {
  type: 'function';
  function: { name: string; description: string; parameters: JsonObject };
}

export interface ChatCompletionBody {
  model: string;
  messages: OpenAIMessage[];
  stream: true;
  /** Asks for the usage chunk at the end of the stream (servers that do not know it ignore it). */
  stream_options: { include_usage: true };
  tools?: OpenAITool[];
  reasoning_effort?: 'low' | 'high';
}

/** The JSON body of `POST /chat/completions` for one streamed turn. */
export function chatCompletionBody(request: ProviderRequest, model: ModelSpec): ChatCompletionBody {
  const messages = toOpenAIMessages(request.messages);
  if (request.systemPrompt) messages.unshift({ role: 'system', content: request.systemPrompt });
  const body: ChatCompletionBody = {
    model: model.modelId,
    messages,
    stream: true,
    stream_options: { include_usage: true },
  };
  // Servers differ on an empty tools array (some reject it), so no tools means no key.
  if (request.tools.length > 0) body.tools = request.tools.map(toOpenAITool);
  // Only reasoning models understand reasoning_effort; "off" is left to the model's default.
  if (model.reasoning && request.thinkingLevel !== 'off') body.reasoning_effort = request.thinkingLevel;
  return body;
}

export function toOpenAIMessages(messages: readonly AgentMessage[]): OpenAIMessage[] {
  const mapped: OpenAIMessage[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        mapped.push({ role: 'user', content: joinText(message.content) });
        break;
      case 'assistant': {
        const text = joinText(message.content.filter((part): part is TextPart => part.type === 'text'));
        const toolCalls: OpenAIToolCall[] = [];
        for (const part of message.content) {
          if (part.type !== 'tool_call') continue;
          toolCalls.push({
            id: part.id,
            type: 'function',
            function: { name: part.name, arguments: JSON.stringify(part.arguments) },
          });
        }
        // An empty assistant turn (aborted before its first delta) carries nothing and some servers reject it.
        if (text === '' && toolCalls.length === 0) break;
        mapped.push(
          toolCalls.length === 0
            ? { role: 'assistant', content: text }
            : { role: 'assistant', content: text === '' ? null : text, tool_calls: toolCalls },
        );
        break;
      }
      case 'tool':
        mapped.push({ role: 'tool', tool_call_id: message.toolCallId, content: joinText(message.content) });
        break;
    }
  }
  return mapped;
}

export function toOpenAITool(tool: ToolSchema): OpenAITool {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  };
}

function joinText(parts: readonly TextPart[]): string {
  return parts.map((part) => part.text).join('\n');
}
