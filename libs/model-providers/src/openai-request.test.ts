import type { AgentMessage, ModelSpec, ProviderRequest } from '@pi/agent';
import { describe, expect, it } from 'vitest';
import { chatCompletionBody, toOpenAIMessages } from './openai-request';

const plainModel: ModelSpec = { provider: 'p', modelId: 'gpt-x', name: 'X', reasoning: false };
const reasoningModel: ModelSpec = { ...plainModel, modelId: 'o-x', reasoning: true };

function request(overrides: Partial<ProviderRequest> = {}): ProviderRequest {
  return { modelId: 'gpt-x', messages: [], tools: [], thinkingLevel: 'high', ...overrides };
}

describe('toOpenAIMessages', () => {
  it('maps user text, assistant tool calls with JSON-string arguments, and tool results', () => {
    const messages: AgentMessage[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'read it' },
          { type: 'text', text: 'please' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Reading.' },
          { type: 'tool_call', id: 'c1', name: 'read', arguments: { path: 'a.txt' } },
        ],
        model: 'p/gpt-x',
        stopReason: 'tool_calls',
      },
      {
        role: 'tool',
        toolCallId: 'c1',
        toolName: 'read',
        content: [{ type: 'text', text: 'contents' }],
        details: null,
        isError: false,
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Done.' }], model: 'p/gpt-x', stopReason: 'stop' },
    ];
    expect(toOpenAIMessages(messages)).toEqual([
      { role: 'user', content: 'read it\nplease' },
      {
        role: 'assistant',
        content: 'Reading.',
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read', arguments: '{"path":"a.txt"}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'contents' },
      { role: 'assistant', content: 'Done.' },
    ]);
  });

  it('sends null content for a tool-calls-only assistant turn and drops an empty one', () => {
    const messages: AgentMessage[] = [
      {
        role: 'assistant',
        content: [{ type: 'tool_call', id: 'c1', name: 'ls', arguments: {} }],
        model: 'p/x',
        stopReason: 'tool_calls',
      },
      { role: 'assistant', content: [], model: 'p/x', stopReason: 'aborted' },
    ];
    expect(toOpenAIMessages(messages)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ls', arguments: '{}' } }],
      },
    ]);
  });
});

describe('chatCompletionBody', () => {
  it('streams, and omits tools and reasoning effort when there are none to send', () => {
    expect(chatCompletionBody(request(), plainModel)).toEqual({
      model: 'gpt-x',
      messages: [],
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('describes tools as functions and passes the thinking level to reasoning models', () => {
    const tools = [{ name: 'read', description: 'Read a file', parameters: { type: 'object' } }];
    expect(chatCompletionBody(request({ tools }), reasoningModel)).toEqual({
      model: 'o-x',
      messages: [],
      stream: true,
      stream_options: { include_usage: true },
      tools: [
        { type: 'function', function: { name: 'read', description: 'Read a file', parameters: { type: 'object' } } },
      ],
      reasoning_effort: 'high',
    });
  });

  it('sends the system prompt as the first message, and none when it is empty', () => {
    const messages: AgentMessage[] = [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }];
    expect(chatCompletionBody(request({ systemPrompt: 'You are pi.', messages }), plainModel).messages).toEqual([
      { role: 'system', content: 'You are pi.' },
      { role: 'user', content: 'hi' },
    ]);
    expect(chatCompletionBody(request({ systemPrompt: '', messages }), plainModel).messages).toEqual([
      { role: 'user', content: 'hi' },
    ]);
  });
});
