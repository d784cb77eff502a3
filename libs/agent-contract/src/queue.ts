import type { PromptTooLarge } from './lane';
import type { UserMessage } from './messages';

/**
 * Messages sent while a run is in progress wait in the lane's queue (docs/decisions.md, "Steer and follow-up"):
 * a `steer` is delivered to the model at the run's next turn boundary (after that turn's tool calls, before the
 * next model request); a `follow-up` starts a run of its own once the run in progress settles, in order.
 */
export type QueueItemKind = 'steer' | 'follow-up';

/** A message waiting in the queue. Its id names it for `withdraw`; `queuedAt` is when it became durable. */
export interface QueueItem {
  readonly id: string;
  readonly kind: QueueItemKind;
  readonly message: UserMessage;
  /** ISO-8601: the timestamp of its `queue_added` entry. */
  readonly queuedAt: string;
}

/** What a caller may attach to a steer or follow-up: its own id for the send, as with `prompt`. */
export interface QueueOptions {
  /**
   * The client's id for this send (1–128 of `[A-Za-z0-9_-]`, one namespace with `prompt`'s). A later send with the
   * same id queues nothing: it answers with the first send's acceptance, `duplicate: true`.
   */
  clientOperationId?: string;
}

/**
 * A steer or follow-up's acceptance: `queued` behind the run in progress, or — no run in progress and nothing
 * queued — `started` as a run of its own at once, exactly as a prompt would.
 */
export type QueueAcceptance =
  | { kind: 'queued'; itemId: string; duplicate: boolean }
  | { kind: 'started'; operationId: string; duplicate: boolean };

/** Why a steer or follow-up was refused; `no_model` only when it would have started a run at once. */
export type QueueRejection =
  | { code: 'invalid_message'; message: string }
  | { code: 'no_model'; message: string }
  | { code: 'queue_full'; message: string }
  | { code: 'session_file_unwritable'; message: string }
  | PromptTooLarge;

/** `withdraw` of an item already delivered (or started) is too late; an id never queued here is unknown. */
export type WithdrawRejection = { code: 'unknown_queue_item' | 'queue_item_consumed'; message: string };

/** Why an item left the queue without being delivered. */
export type QueueWithdrawReason = 'withdrawn' | 'aborted';
