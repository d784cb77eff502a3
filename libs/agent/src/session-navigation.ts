import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import type { Context } from '@pi/context';
import type {
  ForkOptions,
  ForkRejection,
  ForkedSession,
  LeafMove,
  NavigationRejection,
  SessionHeader,
  SessionNavigation,
  SessionTreeNode,
  SessionTreePage,
} from '@pi/agent-contract';
import { err, ok, type Result } from 'neverthrow';
import { eventDeliveryContext } from './harness-events';
import { forkEntries, writeForkFile } from './session-fork';
import type { SessionTreeState } from './session-tree';
import type { SessionWriter } from './session-writer';
import { TreeIndex } from './tree-index';

export interface NavigationParts {
  readonly tree: SessionTreeState;
  readonly writer: SessionWriter;
  /** The run in progress, if any (the main lane's). */
  readonly running: () => string | null;
  /** This session's file and header: a fork goes beside it and copies its cwd. */
  readonly file: string;
  readonly header: SessionHeader;
}

/**
 * Listing, leaf moves and forks over the durable tree. A leaf move is an entry like any other (the child of the
 * entry the leaf moves to), so "the leaf is the last entry" still holds and restoring a file needs no new rule.
 */
export class HarnessNavigation implements SessionNavigation {
  readonly #parts: NavigationParts;
  readonly #index: TreeIndex;

  constructor(parts: NavigationParts) {
    this.#parts = parts;
    this.#index = new TreeIndex(parts.tree);
  }

  get leafId(): string | null {
    return this.#index.leafId;
  }

  list(offset: number, limit: number): SessionTreePage {
    if (!Number.isInteger(offset) || offset < 0) throw new RangeError(`offset must be an index, got ${offset}`);
    if (!Number.isInteger(limit) || limit < 0) throw new RangeError(`limit must be a count, got ${limit}`);
    const leafId = this.#index.leafId;
    const current = new Set(this.#index.pathTo(leafId).map((indexed) => indexed.entry.id));
    const nodes = this.#index.nodeIds(offset, offset + limit).map((id): SessionTreeNode => {
      const indexed = this.#index.get(id);
      if (indexed === undefined) throw new Error(`session tree index is missing entry ${id}`);
      return {
        entry: indexed.entry,
        parentId: indexed.nodeParentId,
        restingPoint: indexed.open === null,
        onCurrentBranch: current.has(id),
      };
    });
    return { offset, total: this.#index.nodeCount, leafId, nodes };
  }

  async moveLeaf(entryId: string | null, context: Context): Promise<Result<LeafMove, NavigationRejection>> {
    // Checked and enqueued in one synchronous step: a prompt accepted after this call branches from the move.
    const running = this.#parts.running();
    if (running !== null) {
      return err({
        code: 'busy',
        message: `Operation ${running} is still running: the leaf moves once it settles`,
        operationId: running,
      });
    }
    const target = this.#target(entryId);
    if (target.isErr()) return err(target.error);
    const from = this.#index.leafId;
    if (from === entryId) return ok({ leafId: entryId, moved: false });
    await this.#parts.writer.appendAt(entryId, { kind: 'leaf_moved', from }, 'synced', eventDeliveryContext(context));
    return ok({ leafId: entryId, moved: true });
  }

  async fork(
    entryId: string | null,
    _context: Context,
    options: ForkOptions = {},
  ): Promise<Result<ForkedSession, ForkRejection>> {
    const target = this.#target(entryId);
    if (target.isErr()) return err(target.error);
    const sessionId = randomUUID();
    const file = options.file ?? join(dirname(this.#parts.file), `${sessionId}.jsonl`);
    const { header } = this.#parts;
    const entries = forkEntries(this.#index.pathTo(entryId).map((indexed) => indexed.entry));
    await writeForkFile(file, {
      header: {
        type: 'session',
        version: 1,
        sessionId,
        cwd: header.cwd,
        createdAt: new Date().toISOString(),
        forkedFrom: { sessionId: header.sessionId, entryId },
      },
      entries,
    });
    return ok({ sessionId, file, entries: entries.length });
  }

  /** A node that is a resting point (null, before the first entry, always is). */
  #target(entryId: string | null): Result<void, ForkRejection> {
    if (entryId === null) return ok(undefined);
    const indexed = this.#index.get(entryId);
    if (indexed === undefined || indexed.entry.kind === 'leaf_moved')
      return err({ code: 'unknown_entry', message: `No entry ${entryId} in this session` });
    if (indexed.open !== null) {
      return err({
        code: 'not_resting_point',
        message: `Entry ${entryId} is inside operation ${indexed.open}, before it settled: choose its settlement or an entry before it`,
      });
    }
    return ok(undefined);
  }
}
