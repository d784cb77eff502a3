import type { SessionTreeNode } from '@pi/agent';
import { TREE_TEXT_CHARS, type TreeNode, type TreeNodeKind } from '@pi/chat';
import { toTranscriptEntry } from './transcript-projection';

/** A harness tree node as presentations list it: the transcript's kind and one line of text. */
export function treeNode(node: SessionTreeNode): TreeNode {
  const { kind, text } = describe(node);
  const { entry } = node;
  return {
    id: entry.id,
    parentId: node.parentId,
    kind,
    operationId: 'operationId' in entry ? entry.operationId : null,
    text: oneLine(text),
    restingPoint: node.restingPoint,
    current: node.onCurrentBranch,
  };
}

function describe(node: SessionTreeNode): { kind: TreeNodeKind; text: string } {
  const { entry } = node;
  const projected = toTranscriptEntry(entry);
  if (entry.kind === 'custom' && projected === null) return { kind: 'custom', text: entry.namespace };
  if (projected === null) return { kind: 'other', text: entry.kind };
  switch (projected.kind) {
    case 'user':
      return { kind: 'user', text: projected.text };
    case 'assistant': {
      const calls = projected.toolCalls.map((call) => call.name).join(', ');
      return { kind: 'assistant', text: calls === '' ? projected.text : `${projected.text} → ${calls}`.trim() };
    }
    case 'tool_result':
      return { kind: 'tool_result', text: `${projected.toolName}: ${projected.text}` };
    case 'run_started':
      return { kind: 'run_started', text: '' };
    case 'abort_requested':
      return { kind: 'abort_requested', text: '' };
    case 'run_settled':
      return {
        kind: 'run_settled',
        text: projected.error === null ? projected.outcome : `${projected.outcome}: ${projected.error}`,
      };
    case 'compaction':
      return { kind: 'other', text: `compacted (~${projected.tokensBefore} → ~${projected.tokensAfter} tokens)` };
    case 'shell':
      return { kind: 'other', text: `${projected.includeInContext ? '!' : '!!'}${projected.command}` };
  }
}

/** Control characters and runs of white space become one space; cut to TREE_TEXT_CHARS without splitting a pair. */
export function oneLine(text: string): string {
  const flat = text.replace(/[\p{Cc}\s]+/gu, ' ').trim();
  if (flat.length <= TREE_TEXT_CHARS) return flat;
  let end = TREE_TEXT_CHARS - 1;
  const code = flat.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${flat.slice(0, end)}…`;
}
