import { describe, expect, it } from 'vitest';
import type { SessionEntry, SessionTreeNode } from '@pi/agent';
import { TREE_TEXT_CHARS } from '@pi/chat';
import { oneLine, treeNode } from './tree-node';

const base = { id: 'e', parentId: 'p', timestamp: 't' };
const node = (entry: SessionEntry): SessionTreeNode => ({
  entry,
  parentId: 'p',
  restingPoint: false,
  onCurrentBranch: true,
});

describe('treeNode', () => {
  it('names each entry in the transcript’s words, with one line of text', () => {
    const assistant: SessionEntry = {
      ...base,
      kind: 'message',
      operationId: 'op',
      message: {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me look.\n' },
          { type: 'tool_call', id: 'c1', name: 'read', arguments: {} },
        ],
        model: 'm',
        stopReason: 'tool_calls',
      },
    };
    expect(treeNode(node(assistant))).toEqual({
      id: 'e',
      parentId: 'p',
      kind: 'assistant',
      operationId: 'op',
      text: 'Let me look. → read',
      restingPoint: false,
      current: true,
    });
    const settled: SessionEntry = {
      ...base,
      kind: 'operation_settled',
      operationId: 'op',
      outcome: 'failed',
      error: 'x',
    };
    expect(treeNode(node(settled))).toEqual(expect.objectContaining({ kind: 'run_settled', text: 'failed: x' }));
    const custom: SessionEntry = { ...base, kind: 'custom', namespace: '@pi/git', data: null };
    expect(treeNode(node(custom))).toEqual(
      expect.objectContaining({ kind: 'custom', text: '@pi/git', operationId: null }),
    );
  });

  it('names a shell command by what was typed: !command, or !!command when the model never read it', () => {
    const record = { type: 'shell', command: 'git status', output: '', exitCode: 0, signal: null };
    const ended = { timedOut: false, aborted: false, truncated: false, totalBytes: 0, timeoutSeconds: 600 };
    const data = { ...record, ...ended };
    const message = { role: 'user' as const, content: [{ type: 'text' as const, text: '$ git status' }] };
    const sent: SessionEntry = {
      ...base,
      kind: 'message',
      operationId: null,
      message,
      origin: { namespace: '@pi/chat', data },
    };
    expect(treeNode(node(sent))).toEqual(expect.objectContaining({ kind: 'other', text: '!git status' }));
    const kept: SessionEntry = { ...base, kind: 'custom', namespace: '@pi/chat', data };
    expect(treeNode(node(kept))).toEqual(expect.objectContaining({ kind: 'other', text: '!!git status' }));
  });
});

describe('oneLine', () => {
  it('turns control characters and white space runs into one space', () => {
    expect(oneLine(' a\n\tb\u001b[31mc ')).toBe('a b [31mc');
  });

  it('cuts long text to TREE_TEXT_CHARS with an ellipsis, never inside a surrogate pair', () => {
    expect(oneLine('x'.repeat(500))).toHaveLength(TREE_TEXT_CHARS);
    const cut = oneLine(`${'x'.repeat(TREE_TEXT_CHARS - 3)}${'😀'.repeat(10)}`);
    expect(cut.length).toBeLessThanOrEqual(TREE_TEXT_CHARS);
    expect(cut.endsWith('…')).toBe(true);
    expect(/[\ud800-\udbff]…$/.test(cut)).toBe(false);
  });
});
