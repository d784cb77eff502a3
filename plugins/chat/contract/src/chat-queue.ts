import { z } from 'zod';

/**
 * Messages sent while a run is in progress (docs/decisions.md, "Steer and follow-up"). A `steer` reaches the model
 * at the run's next turn boundary: after that turn's tool calls, before the next model request. A `follow-up` starts
 * a run of its own once the run in progress is done, in the order sent. Steers go before follow-ups.
 */
export const QUEUE_ITEM_KINDS = { steer: 'steer', followUp: 'follow-up' } as const;
export type QueueItemKind = (typeof QUEUE_ITEM_KINDS)[keyof typeof QUEUE_ITEM_KINDS];

/** One waiting message, as every client sees it. */
export interface QueuedMessage {
  /** What `withdraw` takes. */
  id: string;
  kind: QueueItemKind;
  text: string;
  /** ISO-8601: when the session accepted it. */
  queuedAt: string;
}

/** The `queue` state: what waits, in delivery order (every steer, then the follow-ups). */
export interface ChatQueue {
  items: QueuedMessage[];
}

/** Why a steer or follow-up was not accepted (the lane's stable codes). */
export const QUEUE_REJECTION_CODES = {
  invalid_message: 'invalid_message',
  no_model: 'no_model',
  queue_full: 'queue_full',
  session_file_unwritable: 'session_file_unwritable',
  /** More than the model's context window holds (as for `prompt`). */
  too_large: 'too_large',
} as const;
export type QueueRejectionCode = (typeof QUEUE_REJECTION_CODES)[keyof typeof QUEUE_REJECTION_CODES];

/**
 * The answer to `steer` and `followUp`, at acceptance. Queued: `queueItemId` names the waiting item. Sent with no
 * run in progress and nothing queued, it starts a run at once, as a prompt: `operationId` names that run. Refused:
 * `error` says why. `duplicate` (only when true): the request's `operationId` was sent before, and this is the
 * first send's answer — nothing was queued or started again.
 */
export interface QueueResponse {
  accepted: boolean;
  queueItemId: string | null;
  operationId: string | null;
  error: { code: QueueRejectionCode; message: string } | null;
  duplicate?: boolean;
}

/** The errors `withdraw` fails with: an item delivered (or started) already, or one this session never queued. */
export const WITHDRAW_ERROR_CODES = {
  unknown_queue_item: 'unknown_queue_item',
  queue_item_consumed: 'queue_item_consumed',
  /** The withdrawal could not be recorded: the item still waits. */
  session_file_unwritable: 'session_file_unwritable',
} as const;
export type WithdrawErrorCode = (typeof WITHDRAW_ERROR_CODES)[keyof typeof WITHDRAW_ERROR_CODES];

export const queueItemKindSchema = z.enum([QUEUE_ITEM_KINDS.steer, QUEUE_ITEM_KINDS.followUp]);

export const chatQueueSchema: z.ZodType<ChatQueue> = z.object({
  items: z.array(z.object({ id: z.string(), kind: queueItemKindSchema, text: z.string(), queuedAt: z.string() })),
});

export const queueResponseSchema: z.ZodType<QueueResponse> = z.object({
  accepted: z.boolean(),
  queueItemId: z.string().nullable(),
  operationId: z.string().nullable(),
  error: z
    .object({
      code: z.enum(['invalid_message', 'no_model', 'queue_full', 'session_file_unwritable', 'too_large']),
      message: z.string(),
    })
    .nullable(),
  duplicate: z.boolean().optional(),
});
