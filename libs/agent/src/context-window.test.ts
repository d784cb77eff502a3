import { describe, expect, it } from 'vitest';
import type { AgentMessage, SessionEntry } from '@pi/agent-contract';
import { branchContext, contextMessages, summaryMessage } from './context-window';

const message = (id: string, text: string): SessionEntry => ({
  id,
  parentId: null,
  timestamp: '',
  kind: 'message',
  operationId: null,
  message: { role: 'user', content: [{ type: 'text', text }] },
});
const compaction = (id: string, firstKeptEntryId: string | null, summary: string): SessionEntry => ({
  id,
  parentId: null,
  timestamp: '',
  kind: 'compaction',
  firstKeptEntryId,
  summary,
  instructions: null,
  trigger: 'manual',
  model: 'p/m',
  tokensBefore: 10,
  tokensAfter: 5,
  operationId: null,
});
const texts = (messages: readonly AgentMessage[]) =>
  messages.map((entry) => entry.content.map((part) => (part.type === 'text' ? part.text : '')).join(''));

describe('branchContext', () => {
  it('is every message of a branch without a compaction', () => {
    const context = branchContext([message('a', 'one'), message('b', 'two')]);
    expect(context.compaction).toBeNull();
    expect(texts(contextMessages(context))).toEqual(['one', 'two']);
  });

  it('is the latest summary, the tail it kept, and what followed it', () => {
    const branch = [
      message('a', 'one'),
      message('b', 'two'),
      compaction('c1', 'b', 'first summary'),
      message('d', 'three'),
      message('e', 'four'),
      compaction('c2', 'e', 'second summary'),
      message('f', 'five'),
    ];
    const context = branchContext(branch);
    expect(context.compaction?.id).toBe('c2');
    expect(texts(contextMessages(context))).toEqual([texts([summaryMessage('second summary')])[0], 'four', 'five']);
  });

  it('keeps nothing before a compaction that kept nothing, or whose kept entry is not on the branch', () => {
    expect(
      texts(
        branchContext([message('a', 'one'), compaction('c', null, 's'), message('b', 'two')]).items.map(
          (item) => item.message,
        ),
      ),
    ).toEqual(['two']);
    expect(branchContext([message('a', 'one'), compaction('c', 'elsewhere', 's')]).items).toEqual([]);
  });

  it('puts the summary first as a user message that says what it is', () => {
    const [text] = texts([summaryMessage('did X')]);
    expect(text).toContain('compacted');
    expect(text).toContain('did X');
  });
});
