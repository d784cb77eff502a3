import type { ViewDelta, ViewRecord } from './view-contract';

/**
 * A client's copy of the views addressed to it, built from the `open` snapshot and the deltas in whatever order
 * they arrive: per view id, only what carries a newer version than what is held counts, and a closed view's
 * version is remembered so an older snapshot cannot bring it back.
 */
export class ViewReplica {
  readonly #views = new Map<string, ViewRecord>();
  readonly #closed = new Map<string, number>();

  /** The open views, in the order they opened. */
  list(): readonly ViewRecord[] {
    return [...this.#views.values()];
  }

  get(viewId: string): ViewRecord | undefined {
    return this.#views.get(viewId);
  }

  /** A snapshot (or a later value) of the `open` cell: it says which views are open. */
  applyOpen(records: readonly ViewRecord[]): void {
    const next = new Map<string, ViewRecord>();
    for (const record of records) {
      if ((this.#closed.get(record.viewId) ?? -1) >= record.version) continue;
      const held = this.#views.get(record.viewId);
      next.set(record.viewId, held !== undefined && held.version > record.version ? held : record);
    }
    this.#views.clear();
    for (const [viewId, record] of next) this.#views.set(viewId, record);
  }

  applyDelta(delta: ViewDelta): void {
    const held = this.#views.get(delta.viewId);
    if (delta.type === 'view_closed') {
      this.#closed.set(delta.viewId, Math.max(delta.version, this.#closed.get(delta.viewId) ?? -1));
      if (held !== undefined && held.version < delta.version) this.#views.delete(delta.viewId);
      return;
    }
    if (held !== undefined && held.version < delta.version) {
      this.#views.set(delta.viewId, { ...held, state: delta.state, version: delta.version });
    }
  }
}
