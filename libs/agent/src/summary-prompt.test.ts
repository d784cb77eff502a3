import { describe, expect, it } from 'vitest';
import type { AgentMessage } from '@pi/agent-contract';
import { SUMMARY_TOOL_RESULT_CHARS, conversationText, summaryPrompt } from './summary-prompt';

const user = (text: string): AgentMessage => ({ role: 'user', content: [{ type: 'text', text }] });
const conversation: AgentMessage[] = [
  user('fix the bug'),
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Reading it.' },
      { type: 'tool_call', id: 'c1', name: 'read', arguments: { path: 'src/a.ts' } },
    ],
    model: 'p/m',
    stopReason: 'tool_calls',
  },
  {
    role: 'tool',
    toolCallId: 'c1',
    toolName: 'read',
    content: [{ type: 'text', text: 'x'.repeat(SUMMARY_TOOL_RESULT_CHARS + 500) }],
    details: null,
    isError: false,
  },
];

describe('summaryPrompt', () => {
  it('renders the conversation as text, tool calls with their arguments, long results cut', () => {
    const text = conversationText(conversation, null);
    expect(text).toContain('[User]: fix the bug');
    expect(text).toContain('[Assistant]: Reading it.\n[Assistant called read]: {"path":"src/a.ts"}');
    expect(text).toContain('… [500 more characters]');
    expect(text.length).toBeLessThan(SUMMARY_TOOL_RESULT_CHARS + 200);
  });

  it('leaves out the oldest messages beyond the bound, and says so', () => {
    const text = conversationText([user('old '.repeat(100)), user('new')], 20);
    expect(text).toBe('[1 earlier messages left out]\n\n[User]: new');
    expect(conversationText([user('a'.repeat(100))], 10)).toBe(`[… cut] ${'a'.repeat(10)}`);
  });

  it('carries the previous summary and the instructions', () => {
    const prompt = summaryPrompt({
      modelId: 'm',
      messages: [user('next step')],
      previousSummary: 'we did X',
      instructions: 'keep the file names',
      maxInputTokens: null,
    });
    expect(prompt.system).toContain('summary');
    expect(prompt.user).toContain('<previous-summary>\nwe did X\n</previous-summary>');
    expect(prompt.user).toContain('[User]: next step');
    expect(prompt.user).toContain('Instructions from the user for this summary: keep the file names');
  });
});
