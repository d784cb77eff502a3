import type { SessionEntry } from '@pi/agent-contract';
import type { SessionTree } from '@pi/agent-contract';
import type { AgentMessage } from '@pi/agent-contract';

/**
 * The in-memory view of the session file. Entries are deep-frozen when added, so no reader can change
 * what was stored (the file is the truth; a mutated copy would silently disagree with it).
 */
export class SessionTreeState implements SessionTree {
  readonly sessionId: string;
  readonly #entries: SessionEntry[] = [];
  readonly #byId = new Map<string, SessionEntry>();
  #leafId: string | null = null;

  constructor(sessionId: string, entries: readonly SessionEntry[]) {
    this.sessionId = sessionId;
    for (const entry of entries) this.add(entry);
  }

  get leafId(): string | null {
    return this.#leafId;
  }

  /** Records an entry that is already in the file; it becomes the leaf. */
  add(entry: SessionEntry): void {
    const frozen = deepFreeze(entry);
    this.#entries.push(frozen);
    this.#byId.set(frozen.id, frozen);
    this.#leafId = frozen.id;
  }

  entries(): readonly SessionEntry[] {
    return [...this.#entries];
  }

  /** How many entries the file holds. */
  get size(): number {
    return this.#entries.length;
  }

  /** The entries from position `start` on, in file order (for readers that catch up incrementally). */
  entriesFrom(start: number): readonly SessionEntry[] {
    return this.#entries.slice(start);
  }

  branch(): readonly SessionEntry[] {
    const path: SessionEntry[] = [];
    for (let id = this.#leafId; id !== null;) {
      const entry = this.#byId.get(id);
      // Restore checked that every parent precedes its child, so the walk always finds its entries.
      if (entry === undefined) throw new Error(`session tree is missing entry ${id}`);
      path.push(entry);
      id = entry.parentId;
    }
    return path.reverse();
  }

  messages(): AgentMessage[] {
    return this.branch().flatMap((entry) => (entry.kind === 'message' ? [entry.message] : []));
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
