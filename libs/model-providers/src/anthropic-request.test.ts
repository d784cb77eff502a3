import type { AgentMessage, ModelSpec, ProviderRequest } from '@pi/agent';
import { describe, expect, it } from 'vitest';
import { anthropicMessagesBody, toAnthropicMessages } from './anthropic-request';

const sonnet: ModelSpec = {
  provider: 'anthropic',
  modelId: 'claude-x',
  name: 'X',
  reasoning: true,
  maxOutputTokens: 64_000,
};
const user = (text: string): AgentMessage => ({ role: 'user', content: [{ type: 'text', text }] });
const request = (overrides: Partial<ProviderRequest> = {}): ProviderRequest => ({
  modelId: 'claude-x',
  messages: [user('hi')],
  tools: [],
  thinkingLevel: 'off',
  ...overrides,
});

describe('toAnthropicMessages', () => {
  it('sends tool results as tool_result blocks of one user turn, and a following prompt in the same turn', () => {
    const messages: AgentMessage[] = [
      user('list and read'),
      {
        role: 'assistant',
        content: [
          { type: 'thinking', text: 'Two calls.', signature: 'sig' },
          { type: 'text', text: 'Looking.' },
          { type: 'tool_call', id: 't1', name: 'ls', arguments: {} },
          { type: 'tool_call', id: 't2', name: 'read', arguments: { path: 'a' } },
        ],
        model: 'anthropic/claude-x',
        stopReason: 'tool_calls',
      },
      {
        role: 'tool',
        toolCallId: 't1',
        toolName: 'ls',
        content: [{ type: 'text', text: 'a' }],
        details: null,
        isError: false,
      },
      { role: 'tool', toolCallId: 't2', toolName: 'read', content: [], details: null, isError: true },
      user('and then stop'),
    ];
    expect(toAnthropicMessages(messages, 'anthropic')).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'list and read' }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Two calls.', signature: 'sig' },
          { type: 'text', text: 'Looking.' },
          { type: 'tool_use', id: 't1', name: 'ls', input: {} },
          { type: 'tool_use', id: 't2', name: 'read', input: { path: 'a' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: 'a' },
          { type: 'tool_result', tool_use_id: 't2', is_error: true },
          { type: 'text', text: 'and then stop' },
        ],
      },
    ]);
  });

  it('sends reasoning back only to the provider that signed it, redacted reasoning as it came, and drops empty text', () => {
    const fromOther: AgentMessage = {
      role: 'assistant',
      content: [
        { type: 'thinking', text: 'other', signature: 'x' },
        { type: 'text', text: 'answer' },
      ],
      model: 'openai/gpt',
      stopReason: 'stop',
    };
    const redacted: AgentMessage = {
      role: 'assistant',
      content: [
        { type: 'thinking', text: '', signature: 'ENC', redacted: true },
        { type: 'text', text: '' },
      ],
      model: 'anthropic/claude-x',
      stopReason: 'stop',
    };
    expect(toAnthropicMessages([user(''), fromOther, user('next'), redacted], 'anthropic')).toEqual([
      { role: 'assistant', content: [{ type: 'text', text: 'answer' }] },
      { role: 'user', content: [{ type: 'text', text: 'next' }] },
      { role: 'assistant', content: [{ type: 'redacted_thinking', data: 'ENC' }] },
    ]);
  });
});

describe('anthropicMessagesBody', () => {
  it('puts cache breakpoints after the system prompt, the tool list and the conversation', () => {
    const body = anthropicMessagesBody(
      request({
        systemPrompt: 'You are pi.',
        tools: [
          { name: 'ls', description: 'List.', parameters: { type: 'object' } },
          { name: 'read', description: 'Read.', parameters: { type: 'object' } },
        ],
      }),
      sonnet,
    );
    expect(body).toEqual({
      model: 'claude-x',
      max_tokens: 64_000,
      stream: true,
      system: [{ type: 'text', text: 'You are pi.', cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } }] }],
      tools: [
        { name: 'ls', description: 'List.', input_schema: { type: 'object' } },
        { name: 'read', description: 'Read.', input_schema: { type: 'object' }, cache_control: { type: 'ephemeral' } },
      ],
    });
  });

  it('maps the thinking level to a budget on reasoning models, leaving room for the answer', () => {
    expect(anthropicMessagesBody(request({ thinkingLevel: 'low' }), sonnet).thinking).toEqual({
      type: 'enabled',
      budget_tokens: 4_000,
    });
    const small = { ...sonnet, maxOutputTokens: 8_192 };
    const high = anthropicMessagesBody(request({ thinkingLevel: 'high' }), small);
    expect(high.thinking).toEqual({ type: 'enabled', budget_tokens: 16_000 });
    expect(high.max_tokens).toBeGreaterThan(16_000);
    expect(
      anthropicMessagesBody(request({ thinkingLevel: 'high' }), { ...sonnet, reasoning: false }),
    ).not.toHaveProperty('thinking');
    expect(anthropicMessagesBody(request(), { ...sonnet, maxOutputTokens: undefined }).max_tokens).toBe(8_192);
  });
});
