import { randomUUID } from 'node:crypto';
import type { Context } from '@pi/context';
import type { EntryBase, SessionEntry } from '@pi/agent-contract';
import type { Durability, SessionFile } from './session-file';
import type { SessionTreeState } from './session-tree';

/** An entry as its author describes it; the writer adds id, parent and timestamp. */
export type EntryBody = SessionEntry extends infer Entry
  ? Entry extends SessionEntry
    ? Omit<Entry, keyof EntryBase>
    : never
  : never;

/**
 * The one way entries are added: ids and parents are assigned in enqueue order (so the file's order and
 * the tree's parent chain agree), the line is written, and only then does the tree show it and listeners
 * hear of it.
 */
export class SessionWriter {
  readonly #file: SessionFile;
  readonly #tree: SessionTreeState;
  readonly #appended: (entry: SessionEntry, context: Context) => void;
  /** The leaf once every queued append has landed. */
  #pendingLeafId: string | null;

  constructor(file: SessionFile, tree: SessionTreeState, appended: (entry: SessionEntry, context: Context) => void) {
    this.#file = file;
    this.#tree = tree;
    this.#appended = appended;
    this.#pendingLeafId = tree.leafId;
  }

  /** The entry the next `append` follows: the leaf once every queued append has landed. */
  get pendingLeafId(): string | null {
    return this.#pendingLeafId;
  }

  /** Enqueues synchronously (callers rely on the order of their calls), resolves once written. */
  append(body: EntryBody, durability: Durability, context: Context): Promise<SessionEntry> {
    return this.appendAt(this.#pendingLeafId, body, durability, context);
  }

  /** Like `append`, as a child of `parentId` (an entry already in the tree) rather than of the leaf: a leaf move. */
  async appendAt(
    parentId: string | null,
    body: EntryBody,
    durability: Durability,
    context: Context,
  ): Promise<SessionEntry> {
    // The spread of a member of the body union plus the base fields is that member of SessionEntry.
    const entry = {
      id: randomUUID(),
      parentId,
      timestamp: new Date().toISOString(),
      ...body,
    } as SessionEntry;
    this.#pendingLeafId = entry.id;
    await this.#file.append(entry, durability);
    this.#tree.add(entry);
    this.#appended(entry, context);
    return entry;
  }
}

/** The operation an entry belongs to, for the `entry_appended` event. */
export function operationOf(entry: SessionEntry): string | null {
  return 'operationId' in entry ? entry.operationId : null;
}
