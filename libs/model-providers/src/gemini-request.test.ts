import type { AgentMessage, ModelSpec, ProviderRequest } from '@pi/agent';
import { describe, expect, it } from 'vitest';
import { geminiBody, toGeminiContents } from './gemini-request';

const flash: ModelSpec = {
  provider: 'google',
  modelId: 'gemini-x',
  name: 'X',
  reasoning: true,
  maxOutputTokens: 65_536,
};
const user = (text: string): AgentMessage => ({ role: 'user', content: [{ type: 'text', text }] });

describe('toGeminiContents', () => {
  it('sends the assistant as model, tool results as functionResponse parts of one user turn, and no reasoning', () => {
    const messages: AgentMessage[] = [
      user('look'),
      {
        role: 'assistant',
        content: [
          { type: 'thinking', text: 'hmm' },
          { type: 'text', text: 'Listing.' },
          { type: 'tool_call', id: 'gemini_call_1', name: 'ls', arguments: {} },
        ],
        model: 'google/gemini-x',
        stopReason: 'tool_calls',
      },
      {
        role: 'tool',
        toolCallId: 'gemini_call_1',
        toolName: 'ls',
        content: [{ type: 'text', text: 'a.txt' }],
        details: null,
        isError: false,
      },
      {
        role: 'tool',
        toolCallId: 'x',
        toolName: 'read',
        content: [{ type: 'text', text: 'no such file' }],
        details: null,
        isError: true,
      },
      user(''),
    ];
    expect(toGeminiContents(messages)).toEqual([
      { role: 'user', parts: [{ text: 'look' }] },
      { role: 'model', parts: [{ text: 'Listing.' }, { functionCall: { name: 'ls', args: {} } }] },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'ls', response: { output: 'a.txt' } } },
          { functionResponse: { name: 'read', response: { error: 'no such file' } } },
        ],
      },
    ]);
  });
});

describe("a call's thought signature", () => {
  const called = (model: string): AgentMessage => ({
    role: 'assistant',
    content: [{ type: 'tool_call', id: 'gemini_call_1', name: 'ls', arguments: {}, signature: 'sig-opaque' }],
    model,
    stopReason: 'tool_calls',
  });

  it('goes back with the call to the provider that made it, and to no other', () => {
    expect(toGeminiContents([user('look'), called('google/gemini-3-pro')], 'google')[1]).toEqual({
      role: 'model',
      parts: [{ functionCall: { name: 'ls', args: {} }, thoughtSignature: 'sig-opaque' }],
    });
    expect(toGeminiContents([user('look'), called('vertex/gemini-3-pro')], 'google')[1]).toEqual({
      role: 'model',
      parts: [{ functionCall: { name: 'ls', args: {} } }],
    });
    expect(
      geminiBody(
        { modelId: 'gemini-x', messages: [user('look'), called('google/gemini-x')], tools: [], thinkingLevel: 'off' },
        flash,
      ).contents[1]?.parts,
    ).toEqual([{ functionCall: { name: 'ls', args: {} }, thoughtSignature: 'sig-opaque' }]);
  });
});

describe('geminiBody', () => {
  const request = (overrides: Partial<ProviderRequest> = {}): ProviderRequest => ({
    modelId: 'gemini-x',
    messages: [user('hi')],
    tools: [{ name: 'ls', description: 'List.', parameters: { type: 'object', additionalProperties: false } }],
    thinkingLevel: 'low',
    ...overrides,
  });

  it('carries the system prompt, the tools with their full JSON schema, the answer limit and the thinking budget', () => {
    expect(geminiBody(request({ systemPrompt: 'You are pi.' }), flash)).toEqual({
      systemInstruction: { parts: [{ text: 'You are pi.' }] },
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      tools: [
        {
          functionDeclarations: [
            { name: 'ls', description: 'List.', parametersJsonSchema: { type: 'object', additionalProperties: false } },
          ],
        },
      ],
      generationConfig: { maxOutputTokens: 65_536, thinkingConfig: { thinkingBudget: 4_096, includeThoughts: true } },
    });
  });

  it('asks for no thinking at off, and sends no thinking config to a model without it', () => {
    expect(geminiBody(request({ thinkingLevel: 'off' }), flash).generationConfig.thinkingConfig).toEqual({
      thinkingBudget: 0,
      includeThoughts: false,
    });
    expect(geminiBody(request(), { ...flash, reasoning: false }).generationConfig).not.toHaveProperty('thinkingConfig');
  });
});
