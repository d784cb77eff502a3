import type { TreeNode } from '@pi/chat';

/** What choosing a message does. */
export type TreeTarget =
  /** A message that started a run: go back to before that run; the editor may get the message to send again. */
  | { readonly kind: 'before'; readonly entryId: string | null }
  /** Any other message: go to the end of its run (the leaf only rests between runs). */
  | { readonly kind: 'end'; readonly entryId: string }
  /** The run has no end yet (it is running), or its nodes were not loaded. */
  | { readonly kind: 'none'; readonly reason: string };

export interface TreeRow {
  /** The select's text: unique among the rows. */
  readonly text: string;
  readonly node: TreeNode;
  readonly target: TreeTarget;
}

/** How many levels of branching are drawn before deeper ones are drawn at the same indent. */
const MAX_DEPTH = 12;
const LABEL_CHARS = 72;

const isMessage = (node: TreeNode) => node.kind === 'user' || node.kind === 'assistant';

/**
 * The messages of the tree as select rows, depth first in the order they were written: a chain of messages stays at
 * one indent, a message with several continuations draws each as a branch (`├─`, `└─`) one level deeper. Rows on
 * the current branch are marked `●`; the last of them, where the next prompt continues, says so.
 */
export function treeRows(nodes: readonly TreeNode[]): TreeRow[] {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const children = new Map<string | null, TreeNode[]>();
  for (const node of nodes.filter(isMessage)) {
    const parent = visibleParent(node, byId);
    children.set(parent, [...(children.get(parent) ?? []), node]);
  }
  const here = [...nodes].reverse().find((node) => node.current && isMessage(node))?.id;
  const rows: TreeRow[] = [];
  const seen = new Map<string, number>();
  const visit = (node: TreeNode, depth: number, glyph: string) => {
    const marker = node.current ? '●' : ' ';
    const indent = '  '.repeat(Math.min(depth, MAX_DEPTH));
    const suffix = node.id === here ? '  ← here' : '';
    const text = unique(`${marker} ${indent}${glyph}${label(node)}${suffix}`, seen);
    rows.push({ text, node, target: targetOf(node, byId, nodes) });
    const next = children.get(node.id) ?? [];
    // A chain goes on under its first message's text.
    if (next.length === 1 && next[0] !== undefined) return visit(next[0], depth, ' '.repeat(glyph.length));
    next.forEach((child, index) => visit(child, depth + 1, index === next.length - 1 ? '└─ ' : '├─ '));
  };
  const roots = children.get(null) ?? [];
  for (const root of roots) visit(root, roots.length > 1 ? 1 : 0, roots.length > 1 ? '· ' : '');
  return rows;
}

/** The current branch's messages that started a run, newest first: where a fork can start (before each). */
export function forkRows(nodes: readonly TreeNode[]): TreeRow[] {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const seen = new Map<string, number>();
  return nodes
    .filter((node) => node.current && node.kind === 'user')
    .map((node) => ({ node, target: targetOf(node, byId, nodes) }))
    .filter((row) => row.target.kind === 'before')
    .reverse()
    .map((row) => ({ ...row, text: unique(label(row.node), seen) }));
}

export function label(node: TreeNode): string {
  const who = node.kind === 'user' ? 'you' : 'ai';
  const text = node.text === '' ? '…' : node.text;
  return `${who}: ${text.length > LABEL_CHARS ? `${text.slice(0, LABEL_CHARS - 1)}…` : text}`;
}

/** `text`, or `text (2)`, `text (3)`… when an earlier row read the same: the select answers with the text. */
function unique(text: string, seen: Map<string, number>): string {
  const count = (seen.get(text) ?? 0) + 1;
  seen.set(text, count);
  return count === 1 ? text : `${text} (${count})`;
}

function visibleParent(node: TreeNode, byId: ReadonlyMap<string, TreeNode>): string | null {
  for (let id = node.parentId; id !== null;) {
    const parent = byId.get(id);
    if (parent === undefined) return null;
    if (isMessage(parent)) return parent.id;
    id = parent.parentId;
  }
  return null;
}

function targetOf(node: TreeNode, byId: ReadonlyMap<string, TreeNode>, nodes: readonly TreeNode[]): TreeTarget {
  const parent = node.parentId === null ? undefined : byId.get(node.parentId);
  if (node.kind === 'user' && parent?.kind === 'run_started') return { kind: 'before', entryId: parent.parentId };
  if (node.restingPoint) return { kind: 'end', entryId: node.id };
  const end = nodes.find((candidate) => candidate.kind === 'run_settled' && candidate.operationId === node.operationId);
  return end === undefined ? { kind: 'none', reason: 'Its run has not ended yet' } : { kind: 'end', entryId: end.id };
}
