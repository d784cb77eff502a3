/** A registered hook and who registered it (named when it fails). */
export interface OwnedHook<H> {
  readonly hook: H;
  readonly owner: string;
}

interface Slot<H> extends OwnedHook<H> {
  readonly rank: number;
  readonly sequence: number;
}

/**
 * Hooks of one kind in composition order: by their owner's rank (its manifest position), then by registration,
 * so a plugin that registers late (at activation, after an event) still runs in its manifest place. Owners
 * without a rank run after every ranked one. One slot per registration: each remover removes exactly its own.
 */
export class OrderedHooks<H> {
  readonly #rankOf: (owner: string) => number;
  #slots: readonly Slot<H>[] = [];
  #sequence = 0;

  constructor(rankOf: (owner: string) => number) {
    this.#rankOf = rankOf;
  }

  add(hook: H, owner: string): () => void {
    const rank = this.#rankOf(owner);
    const slot: Slot<H> = {
      hook,
      owner,
      rank: Number.isFinite(rank) ? rank : Number.POSITIVE_INFINITY,
      sequence: (this.#sequence += 1),
    };
    this.#slots = [...this.#slots, slot].sort((a, b) => a.rank - b.rank || a.sequence - b.sequence);
    return () => {
      this.#slots = this.#slots.filter((other) => other !== slot);
    };
  }

  /** The hooks as they stand now; a registration or removal during a call affects the next call only. */
  list(): readonly OwnedHook<H>[] {
    return this.#slots;
  }
}
