import { randomUUID } from 'node:crypto';
import type { Context } from '@pi/context';
import { err, ok, type Result } from 'neverthrow';
import type {
  QueueItem,
  QueueItemKind,
  QueueRejection,
  QueueWithdrawReason,
  UserMessage,
  WithdrawRejection,
} from '@pi/agent-contract';
import { eventDeliveryContext, type HarnessEventHub } from './harness-events';
import type { MessageQueue } from './message-queue';
import { SessionFileUnwritable } from './session-file-fault';
import type { SessionWriter } from './session-writer';

export interface LaneQueueParts {
  readonly queue: MessageQueue;
  readonly writer: SessionWriter;
  readonly events: HarnessEventHub;
  /** The run in progress, recorded with each queue entry and event. */
  readonly running: () => string | null;
}

/**
 * The lane's queue made durable: every change is decided in memory in one synchronous step (so the order of
 * calls is the order of the queue, and nothing is both delivered and withdrawn), announced as `queue_changed`,
 * and then written. Delivery is recorded by the run itself: the `message` entry that names the item.
 */
export class LaneQueue {
  readonly #parts: LaneQueueParts;

  constructor(parts: LaneQueueParts) {
    this.#parts = parts;
  }

  get items(): readonly QueueItem[] {
    return this.#parts.queue.items;
  }

  get isEmpty(): boolean {
    return this.#parts.queue.isEmpty;
  }

  itemOf(clientOperationId: string): string | undefined {
    return this.#parts.queue.itemOf(clientOperationId);
  }

  clientOperationIdOf(itemId: string): string | undefined {
    return this.#parts.queue.clientOperationIdOf(itemId);
  }

  /** Queues a checked message; resolves with its id once `queue_added` is on disk (synced). */
  async add(
    kind: QueueItemKind,
    message: UserMessage,
    clientOperationId: string | undefined,
    context: Context,
  ): Promise<Result<string, QueueRejection>> {
    const { queue, writer } = this.#parts;
    const refusal = queue.refusal({ message });
    if (refusal !== null) return err({ code: 'queue_full', message: refusal });
    const item: QueueItem = { id: randomUUID(), kind, message, queuedAt: new Date().toISOString() };
    queue.add(item, clientOperationId);
    const entry = {
      kind: 'queue_added' as const,
      itemId: item.id,
      queueKind: kind,
      message,
      operationId: this.#parts.running(),
      // The item's own time, not the entry's (the writer stamps that later): a restart restores the same item.
      queuedAt: item.queuedAt,
      ...(clientOperationId === undefined ? {} : { clientOperationId }),
    };
    const written = writer.append(entry, 'synced', eventDeliveryContext(context));
    this.#changed(context);
    try {
      await written;
    } catch (error) {
      // Not on disk, so not queued: a restart would not know it either, and a resend of its id starts afresh.
      queue.discard(item.id);
      this.#changed(context);
      if (error instanceof SessionFileUnwritable)
        return err({ code: 'session_file_unwritable', message: error.message });
      throw error;
    }
    return ok(item.id);
  }

  async withdraw(itemId: string, context: Context): Promise<Result<void, WithdrawRejection>> {
    switch (this.#parts.queue.fate(itemId)) {
      case 'pending':
        await this.#withdraw([itemId], 'withdrawn', context, 'put back');
        return ok(undefined);
      case 'withdrawn':
        return ok(undefined);
      case 'consumed':
        return err({ code: 'queue_item_consumed', message: `Queued message ${itemId} was already delivered` });
      case 'unknown':
        return err({ code: 'unknown_queue_item', message: `No queued message ${itemId} in this session` });
    }
  }

  /**
   * Withdraws everything waiting (requestAbort): decided now, written in the order of the calls. The abort stands
   * even when the file cannot be written: the withdrawals are then owed to it, ahead of its next entry.
   */
  withdrawAll(context: Context): Promise<unknown> {
    return this.#withdraw(
      this.items.map((item) => item.id),
      'aborted',
      context,
      'owe',
    );
  }

  /** Items taken for delivery whose delivery could not be written: they wait again, as the file still says. */
  putBack(items: readonly QueueItem[], context: Context): void {
    if (items.length === 0) return;
    this.#parts.queue.putBack(items);
    this.#changed(context);
  }

  /** Every waiting steer, taken for delivery at a turn boundary. */
  takeSteers(context: Context): QueueItem[] {
    const taken = this.#parts.queue.takeSteers();
    if (taken.length > 0) this.#changed(context);
    return taken;
  }

  /** What the next run would start with (every steer, else the first follow-up), not yet taken. */
  peekNext(): QueueItem[] {
    return this.#parts.queue.peekNext();
  }

  take(items: readonly QueueItem[], context: Context): QueueItem[] {
    const taken = this.#parts.queue.take(items);
    if (taken.length > 0) this.#changed(context);
    return taken;
  }

  /** `unwritten`: what a write failure does — the items wait again (and the call fails), or the file owes it. */
  async #withdraw(
    ids: readonly string[],
    reason: QueueWithdrawReason,
    context: Context,
    unwritten: 'put back' | 'owe',
  ): Promise<void> {
    const { queue, writer } = this.#parts;
    const operationId = this.#parts.running();
    const withdrawn = ids.flatMap((itemId) => queue.withdraw(itemId) ?? []);
    if (withdrawn.length === 0) return;
    this.#changed(context);
    const bodies = withdrawn.map((item) => ({
      kind: 'queue_withdrawn' as const,
      itemId: item.id,
      reason,
      operationId,
    }));
    try {
      await writer.appendAll(bodies, 'synced', eventDeliveryContext(context));
    } catch (error) {
      if (unwritten === 'owe') writer.owe(bodies);
      else this.putBack(withdrawn, context);
      throw error;
    }
  }

  #changed(context: Context): void {
    const event = { type: 'queue_changed' as const, operationId: this.#parts.running(), queue: this.items };
    this.#parts.events.emit(event, eventDeliveryContext(context));
  }
}
