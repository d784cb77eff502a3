import type { Context } from '@pi/context';
import type { Result } from 'neverthrow';
import type { SessionEntry } from './entries';

/**
 * One entry of the session tree as a reader lists it. Leaf moves (`leaf_moved` entries) are not nodes: an entry
 * written after a move names the move as its parent, and its node names the entry the leaf moved to instead.
 */
export interface SessionTreeNode {
  readonly entry: SessionEntry;
  /** The nearest ancestor that is a node, or null for a first entry. */
  readonly parentId: string | null;
  /** No run is open at this entry (it is not part of an unfinished operation): the leaf may move here. */
  readonly restingPoint: boolean;
  /** On the current branch: between a root and the leaf. */
  readonly onCurrentBranch: boolean;
}

/** Nodes `offset` … `offset + nodes.length - 1` of the tree in file order (stable: the file only grows). */
export interface SessionTreePage {
  readonly offset: number;
  /** How many nodes the tree has. */
  readonly total: number;
  /** The entry the next one follows (a leaf move resolved to where it moved), or null before the first entry. */
  readonly leafId: string | null;
  readonly nodes: readonly SessionTreeNode[];
}

/** Why the leaf cannot go to (or a fork cannot be made from) an entry. Codes are stable. */
export type NavigationRejection =
  /** A run is in progress: its entries must land on the branch it started on. */
  | { code: 'busy'; message: string; operationId: string }
  /** No node with this id in this session. */
  | { code: 'unknown_entry'; message: string }
  /** The entry is inside an operation that has not settled there (it would leave a run half-recorded). */
  | { code: 'not_resting_point'; message: string };

export type ForkRejection = Exclude<NavigationRejection, { code: 'busy' }>;

/** A leaf move: where the leaf is now; `moved` is false when it was there already (nothing was written). */
export interface LeafMove {
  readonly leafId: string | null;
  readonly moved: boolean;
}

/** A new session file holding the branch up to the chosen entry; the original is untouched. */
export interface ForkedSession {
  readonly sessionId: string;
  readonly file: string;
  /** How many entries were copied. */
  readonly entries: number;
}

export interface ForkOptions {
  /** Where the new file goes; by default `<new session id>.jsonl` beside this session's file. Never overwritten. */
  readonly file?: string;
}

/** Moving through the session tree: list it, move the leaf, fork a new session from an entry. */
export interface SessionNavigation {
  /** The entry the next one follows (see SessionTreePage.leafId). */
  readonly leafId: string | null;
  /** Up to `limit` nodes from `offset` (an offset past the end gives none). */
  list(offset: number, limit: number): SessionTreePage;
  /**
   * Moves the leaf to a resting point (null: before the first entry), durably: a `leaf_moved` entry is written and
   * synced, so the next prompt branches from there, a restart keeps it, and the old branch stays to return to.
   * Refused while a run is in progress.
   */
  moveLeaf(entryId: string | null, context: Context): Promise<Result<LeafMove, NavigationRejection>>;
  /**
   * Writes a new session file (new session id) whose entries are the branch from a root to `entryId`, a resting
   * point, without leaf moves. Allowed during a run (a resting point lies outside it).
   */
  fork(entryId: string | null, context: Context, options?: ForkOptions): Promise<Result<ForkedSession, ForkRejection>>;
}
