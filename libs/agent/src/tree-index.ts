import type { SessionEntry } from '@pi/agent-contract';
import type { SessionTreeState } from './session-tree';

/** What the index knows of one entry. */
export interface IndexedEntry {
  readonly entry: SessionEntry;
  /** The nearest ancestor that is a node (not a leaf move); for a leaf move, the entry it moved to. */
  readonly nodeParentId: string | null;
  /** The operation started on this entry's path and not settled by it, or null: null is a resting point. */
  readonly open: string | null;
}

/**
 * The tree as navigation reads it, kept incrementally: the file only grows and every parent precedes its child,
 * so each entry is indexed once, from its parent, when a reader first asks after it was added.
 */
export class TreeIndex {
  readonly #tree: SessionTreeState;
  readonly #byId = new Map<string, IndexedEntry>();
  /** Node ids (every entry but leaf moves) in file order: a node's position never changes. */
  readonly #nodes: string[] = [];
  #seen = 0;

  constructor(tree: SessionTreeState) {
    this.#tree = tree;
  }

  /** The entry with this id, leaf moves included. */
  get(id: string): IndexedEntry | undefined {
    this.#catchUp();
    return this.#byId.get(id);
  }

  /** Node ids `start` … `end - 1` in file order. */
  nodeIds(start: number, end: number): readonly string[] {
    this.#catchUp();
    return this.#nodes.slice(start, end);
  }

  get nodeCount(): number {
    this.#catchUp();
    return this.#nodes.length;
  }

  /** The node the next entry follows: the leaf, or where the last leaf move went. */
  get leafId(): string | null {
    const leaf = this.#tree.leafId;
    return leaf === null ? null : this.#nodeOf(leaf);
  }

  /** The nodes from a root to `id`, root first (`id` must be a node). */
  pathTo(id: string | null): IndexedEntry[] {
    const path: IndexedEntry[] = [];
    for (let current = id; current !== null;) {
      const indexed = this.get(current);
      if (indexed === undefined) throw new Error(`session tree index is missing entry ${current}`);
      path.push(indexed);
      current = indexed.nodeParentId;
    }
    return path.reverse();
  }

  #nodeOf(id: string): string | null {
    const indexed = this.get(id);
    if (indexed === undefined) throw new Error(`session tree index is missing entry ${id}`);
    return indexed.entry.kind === 'leaf_moved' ? indexed.nodeParentId : id;
  }

  #catchUp(): void {
    if (this.#seen === this.#tree.size) return;
    for (const entry of this.#tree.entriesFrom(this.#seen)) this.#add(entry);
    this.#seen = this.#tree.size;
  }

  #add(entry: SessionEntry): void {
    const parent = entry.parentId === null ? undefined : this.#byId.get(entry.parentId);
    const before = parent?.open ?? null;
    const nodeParentId =
      parent === undefined ? null : parent.entry.kind === 'leaf_moved' ? parent.nodeParentId : parent.entry.id;
    this.#byId.set(entry.id, { entry, nodeParentId, open: openAfter(before, entry) });
    if (entry.kind !== 'leaf_moved') this.#nodes.push(entry.id);
  }
}

function openAfter(before: string | null, entry: SessionEntry): string | null {
  switch (entry.kind) {
    case 'operation_started':
      return entry.operationId;
    case 'operation_settled':
      return entry.operationId === before ? null : before;
    default:
      // Every other entry (a message, a cancellation, a plugin's record, a leaf move, …) keeps what was open.
      return before;
  }
}
