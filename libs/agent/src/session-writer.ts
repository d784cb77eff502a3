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
 * hear of it. After a failed write the next append chains from the last entry that was written, never from
 * one that failed.
 */
export class SessionWriter {
  readonly #file: SessionFile;
  readonly #tree: SessionTreeState;
  readonly #appended: (entry: SessionEntry, context: Context) => void;
  /** The leaf once every queued append has landed. */
  #pendingLeafId: string | null;
  /** The file's failure count when `#pendingLeafId` was last trusted. */
  #failuresSeen: number;
  /** Entries a failed write still owes the file (a run's settlement): they go first in the next write. */
  #owed: EntryBody[] = [];

  constructor(file: SessionFile, tree: SessionTreeState, appended: (entry: SessionEntry, context: Context) => void) {
    this.#file = file;
    this.#tree = tree;
    this.#appended = appended;
    this.#pendingLeafId = tree.leafId;
    this.#failuresSeen = file.failures;
  }

  /** The entry the next `append` follows: the leaf once every queued append has landed. */
  get pendingLeafId(): string | null {
    this.#forgetFailedAppends();
    return this.#pendingLeafId;
  }

  /** Enqueues synchronously (callers rely on the order of their calls), resolves once written. */
  async append(body: EntryBody, durability: Durability, context: Context): Promise<SessionEntry> {
    const [entry] = await this.appendAll([body], durability, context);
    if (entry === undefined) throw new Error('an append wrote no entry');
    return entry;
  }

  /** Like `append`, as a child of `parentId` (an entry already in the tree) rather than of the leaf: a leaf move. */
  async appendAt(
    parentId: string | null,
    body: EntryBody,
    durability: Durability,
    context: Context,
  ): Promise<SessionEntry> {
    const [entry] = await this.#write(parentId, [body], durability, context);
    if (entry === undefined) throw new Error('an append wrote no entry');
    return entry;
  }

  /** Appends the bodies, each the child of the one before, in one write: all of them are recorded, or none. */
  appendAll(bodies: readonly EntryBody[], durability: Durability, context: Context): Promise<SessionEntry[]> {
    return this.#write(undefined, bodies, durability, context);
  }

  /** Entries to write ahead of the next append, in the same write (what a failed settlement still owes). */
  owe(bodies: readonly EntryBody[]): void {
    this.#owed.push(...bodies);
  }

  /** `parentId` undefined: the bodies follow the pending leaf. */
  async #write(
    parentId: string | null | undefined,
    bodies: readonly EntryBody[],
    durability: Durability,
    context: Context,
  ): Promise<SessionEntry[]> {
    this.#forgetFailedAppends();
    const owed = this.#owed.splice(0);
    const ahead = this.#chain(this.#pendingLeafId, owed);
    const own = this.#chain(parentId === undefined ? (ahead.at(-1)?.id ?? this.#pendingLeafId) : parentId, bodies);
    const entries = [...ahead, ...own];
    this.#pendingLeafId = entries.at(-1)?.id ?? this.#pendingLeafId;
    const tree = this.#tree;
    await this.#file.append(entries, durability, {
      written: () => {
        for (const entry of entries) tree.add(entry);
      },
      refused: () => {
        this.#owed.unshift(...owed);
      },
    });
    for (const entry of entries) this.#appended(entry, context);
    return own;
  }

  #chain(parentId: string | null, bodies: readonly EntryBody[]): SessionEntry[] {
    let parent = parentId;
    return bodies.map((body) => {
      // The spread of a member of the body union plus the base fields is that member of SessionEntry.
      const entry = {
        id: randomUUID(),
        parentId: parent,
        timestamp: new Date().toISOString(),
        ...body,
      } as SessionEntry;
      parent = entry.id;
      return entry;
    });
  }

  /** After a failure every append still queued is refused, so the leaf to follow is the last one written. */
  #forgetFailedAppends(): void {
    if (this.#file.failures === this.#failuresSeen) return;
    this.#failuresSeen = this.#file.failures;
    this.#pendingLeafId = this.#tree.leafId;
  }
}

/** The operation an entry belongs to, for the `entry_appended` event. */
export function operationOf(entry: SessionEntry): string | null {
  return 'operationId' in entry ? entry.operationId : null;
}
