import { describe, expect, it } from 'vitest';
import type { AgentMessage } from '@pi/agent-contract';
import { keepBudget, planCompaction } from './compaction-plan';
import type { BranchContext, ContextItem } from './context-window';
import { estimateTokens } from './token-estimate';

const user = (text: string): AgentMessage => ({ role: 'user', content: [{ type: 'text', text }] });
const answer = (text: string): AgentMessage => ({
  role: 'assistant',
  content: [{ type: 'text', text }],
  model: 'p/m',
  stopReason: 'stop',
});
const call = (id: string): AgentMessage => ({
  role: 'assistant',
  content: [{ type: 'tool_call', id, name: 'read', arguments: { path: 'a' } }],
  model: 'p/m',
  stopReason: 'tool_calls',
});
const result = (id: string, text: string): AgentMessage => ({
  role: 'tool',
  toolCallId: id,
  toolName: 'read',
  content: [{ type: 'text', text }],
  details: null,
  isError: false,
});

const contextOf = (...messages: AgentMessage[]): BranchContext => ({
  compaction: null,
  items: messages.map((message, index): ContextItem => ({ entryId: `e${index}`, message })),
});
const ids = (items: readonly ContextItem[]) => items.map((item) => item.entryId);

describe('planCompaction', () => {
  it('keeps the longest tail within a fifth of the window, starting at a user or assistant message', () => {
    const big = 'x'.repeat(4000);
    const context = contextOf(user('one'), answer(big), user('two'), answer('short'), user('three'));
    // A window of 2000 tokens keeps at most 400: the last three messages are well within it, the big answer not.
    const plan = planCompaction(context, 2000);
    expect(ids(plan?.summarized ?? [])).toEqual(['e0', 'e1']);
    expect(ids(plan?.kept ?? [])).toEqual(['e2', 'e3', 'e4']);
    const total = context.items.reduce((sum, item) => sum + estimateTokens(item.message), 0);
    expect(plan?.tokensBefore).toBe(total);
  });

  it('never starts the tail at a tool result: the call stays with its result', () => {
    const context = contextOf(
      user('read it'),
      answer('x'.repeat(4000)),
      call('c1'),
      result('c1', 'y'.repeat(600)),
      result('c1', 'z'.repeat(200)),
    );
    // 400 tokens would fit the last result alone, but the tail must start at the call.
    const plan = planCompaction(context, 2000);
    expect(ids(plan?.kept ?? [])).toEqual(['e2', 'e3', 'e4']);
  });

  it('keeps nothing when not even the last turn fits, so the summary carries it', () => {
    const context = contextOf(user('one'), answer('x'.repeat(4000)), call('c1'), result('c1', 'y'.repeat(4000)));
    const plan = planCompaction(context, 2000);
    expect(ids(plan?.summarized ?? [])).toEqual(['e0', 'e1', 'e2', 'e3']);
    expect(plan?.kept).toEqual([]);
  });

  it('summarizes at least half of what there is, so a manual compaction of a short session does something', () => {
    const context = contextOf(user('a'.repeat(400)), answer('b'.repeat(400)), user('c'.repeat(400)), answer('d'));
    expect(keepBudget(128_000, 300)).toBe(150);
    const plan = planCompaction(context, 128_000);
    expect(ids(plan?.summarized ?? [])).toEqual(['e0', 'e1']);
    expect(ids(plan?.kept ?? [])).toEqual(['e2', 'e3']);
  });

  it('uses DEFAULT_KEEP_TOKENS when the window is unknown', () => {
    expect(keepBudget(undefined, 1_000_000)).toBe(20_000);
  });

  it('has nothing to summarize in an empty context, or in one whose only message must be kept', () => {
    expect(planCompaction(contextOf(), 1000)).toBeNull();
    const one = planCompaction(contextOf(user('only')), 1000);
    // A single message is summarized (nothing is kept): the budget is half of it.
    expect(ids(one?.summarized ?? [])).toEqual(['e0']);
  });

  it('counts the previous summary in what there is', () => {
    const context: BranchContext = {
      compaction: {
        id: 'c',
        parentId: null,
        timestamp: '',
        kind: 'compaction',
        firstKeptEntryId: null,
        summary: 's'.repeat(2000),
        instructions: null,
        trigger: 'auto',
        model: 'p/m',
        tokensBefore: 0,
        tokensAfter: 0,
        operationId: null,
      },
      items: contextOf(user('one'), answer('two')).items,
    };
    const plan = planCompaction(context, 100_000);
    expect(plan?.tokensBefore).toBeGreaterThan(500);
    // Half of it is far more than the two short messages: both are kept, nothing is left to summarize but one.
    expect(ids(plan?.summarized ?? [])).toEqual(['e0']);
  });
});
