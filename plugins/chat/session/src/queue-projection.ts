import type { HarnessEvent, QueueAcceptance, QueueItem, QueueRejection } from '@pi/agent';
import type { ChatQueue, QueueResponse } from '@pi/chat';
import type { Context } from '@pi/context';
import type { MutableRemoteState } from '@pi/remote';

/** The lane's queue as the contract's JSON: each item's text, not its message. */
export function chatQueueOf(items: readonly QueueItem[]): ChatQueue {
  return {
    items: items.map(({ id, kind, message, queuedAt }) => ({
      id,
      kind,
      text: message.content.map((part) => part.text).join('\n'),
      queuedAt,
    })),
  };
}

/** Keeps the `queue` cell equal to the lane's queue, one set per change, in the order the lane made them. */
export function queueProjection(cell: MutableRemoteState<ChatQueue>): (event: HarnessEvent, source: Context) => void {
  return (event, source) => {
    if (event.type === 'queue_changed') cell.set(chatQueueOf(event.queue), source);
  };
}

/** The lane's acceptance of a steer or follow-up as the contract's JSON; `duplicate` is present only on a resend. */
export function queueAccepted(acceptance: QueueAcceptance): QueueResponse {
  const ids =
    acceptance.kind === 'queued'
      ? { queueItemId: acceptance.itemId, operationId: null }
      : { queueItemId: null, operationId: acceptance.operationId };
  return acceptance.duplicate
    ? { accepted: true, ...ids, error: null, duplicate: true }
    : { accepted: true, ...ids, error: null };
}

export function queueRejected({ code, message }: QueueRejection): QueueResponse {
  return { accepted: false, queueItemId: null, operationId: null, error: { code, message } };
}
