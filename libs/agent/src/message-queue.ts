import type { QueueItem, QueueItemKind, SessionEntry } from '@pi/agent-contract';

/** The most items that may wait at once. */
export const MAX_QUEUE_ITEMS = 64;
/**
 * The most characters of JSON the waiting messages may hold together (4 Mi): the queue is replicated whole, so it
 * must stay far below the 16 MiB frame a connection refuses, whatever the texts hold.
 */
export const MAX_QUEUE_CHARS = 4 * 1024 * 1024;

/** What became of an item that left the queue. */
export type QueueItemFate = 'pending' | 'consumed' | 'withdrawn' | 'unknown';

/**
 * The queue's memory: what waits (steers before follow-ups, each in arrival order), what became of every item
 * that left, and which client operation id named which item. Pure bookkeeping: the lane writes the entries.
 */
export class MessageQueue {
  readonly #steers: QueueItem[] = [];
  readonly #followUps: QueueItem[] = [];
  readonly #gone = new Map<string, 'consumed' | 'withdrawn'>();
  readonly #byClientId = new Map<string, string>();
  readonly #clientIdOf = new Map<string, string>();
  /** Arrival order, so an item put back takes its old place. */
  readonly #arrival = new Map<string, number>();
  #arrived = 0;
  #chars = 0;

  /** The queue as the file leaves it: added, minus withdrawn, minus delivered (a `message` naming the item). */
  static restore(entries: readonly SessionEntry[]): MessageQueue {
    const queue = new MessageQueue();
    for (const entry of entries) {
      if (entry.kind === 'queue_added') {
        const { itemId: id, queueKind: kind, message } = entry;
        const queuedAt = entry.queuedAt ?? entry.timestamp;
        queue.add({ id, kind, message, queuedAt }, entry.clientOperationId);
      } else if (entry.kind === 'queue_withdrawn') {
        queue.#remove(entry.itemId, 'withdrawn');
      } else if (entry.kind === 'message' && entry.queueItemId !== undefined) {
        queue.#remove(entry.queueItemId, 'consumed');
      }
    }
    return queue;
  }

  /** In delivery order. */
  get items(): readonly QueueItem[] {
    return [...this.#steers, ...this.#followUps];
  }

  get isEmpty(): boolean {
    return this.#steers.length === 0 && this.#followUps.length === 0;
  }

  /** The item a client operation id queued, if one did. */
  itemOf(clientOperationId: string): string | undefined {
    return this.#byClientId.get(clientOperationId);
  }

  /** The client operation id an item was queued with, if any. */
  clientOperationIdOf(itemId: string): string | undefined {
    return this.#clientIdOf.get(itemId);
  }

  /** Why `item` cannot join now (too many, or too large together), or null. */
  refusal(item: { message: QueueItem['message'] }): string | null {
    if (this.#steers.length + this.#followUps.length >= MAX_QUEUE_ITEMS)
      return `The queue holds at most ${MAX_QUEUE_ITEMS} messages`;
    if (this.#chars + size(item) > MAX_QUEUE_CHARS)
      return `The queued messages may hold at most ${MAX_QUEUE_CHARS} characters together`;
    return null;
  }

  add(item: QueueItem, clientOperationId?: string): void {
    this.#listOf(item.kind).push(item);
    this.#arrival.set(item.id, (this.#arrived += 1));
    this.#chars += size(item);
    // The first item wins, as for runs: the lane never queues a second, but a hand-edited file might.
    if (clientOperationId !== undefined && !this.#byClientId.has(clientOperationId)) {
      this.#byClientId.set(clientOperationId, item.id);
      this.#clientIdOf.set(item.id, clientOperationId);
    }
  }

  fate(id: string): QueueItemFate {
    if (this.#find(id) !== undefined) return 'pending';
    return this.#gone.get(id) ?? 'unknown';
  }

  /** Every waiting steer, taken for delivery. */
  takeSteers(): QueueItem[] {
    return this.#take([...this.#steers]);
  }

  /** What the next run starts with: every waiting steer, else the first follow-up, else nothing. */
  peekNext(): QueueItem[] {
    if (this.#steers.length > 0) return [...this.#steers];
    const first = this.#followUps[0];
    return first === undefined ? [] : [first];
  }

  take(items: readonly QueueItem[]): QueueItem[] {
    return this.#take(items);
  }

  withdraw(id: string): QueueItem | undefined {
    return this.#remove(id, 'withdrawn');
  }

  withdrawAll(): QueueItem[] {
    return this.items.flatMap((item) => this.#remove(item.id, 'withdrawn') ?? []);
  }

  /**
   * Items taken or withdrawn whose record could not be written: they wait again, in their old places (the file
   * still shows them waiting).
   */
  putBack(items: readonly QueueItem[]): void {
    for (const item of items) {
      if (this.#gone.get(item.id) === undefined) continue;
      this.#gone.delete(item.id);
      const list = this.#listOf(item.kind);
      const arrival = this.#arrival.get(item.id) ?? Number.POSITIVE_INFINITY;
      const after = list.findIndex((other) => (this.#arrival.get(other.id) ?? 0) > arrival);
      list.splice(after === -1 ? list.length : after, 0, item);
      this.#chars += size(item);
    }
  }

  /** Forgets an item whose `queue_added` could not be written: it was never queued, and its client id is free. */
  discard(id: string): void {
    const item = this.#find(id);
    if (item === undefined) return;
    const list = this.#listOf(item.kind);
    list.splice(list.indexOf(item), 1);
    this.#chars -= size(item);
    this.#arrival.delete(id);
    const clientOperationId = this.#clientIdOf.get(id);
    this.#clientIdOf.delete(id);
    if (clientOperationId !== undefined) this.#byClientId.delete(clientOperationId);
  }

  #take(items: readonly QueueItem[]): QueueItem[] {
    return items.flatMap((item) => this.#remove(item.id, 'consumed') ?? []);
  }

  #remove(id: string, fate: 'consumed' | 'withdrawn'): QueueItem | undefined {
    const item = this.#find(id);
    if (item === undefined) return undefined;
    const list = this.#listOf(item.kind);
    list.splice(list.indexOf(item), 1);
    this.#chars -= size(item);
    this.#gone.set(id, fate);
    return item;
  }

  #find(id: string): QueueItem | undefined {
    return this.#steers.find((item) => item.id === id) ?? this.#followUps.find((item) => item.id === id);
  }

  #listOf(kind: QueueItemKind): QueueItem[] {
    return kind === 'steer' ? this.#steers : this.#followUps;
  }
}

function size(item: { message: QueueItem['message'] }): number {
  return JSON.stringify(item.message).length;
}
