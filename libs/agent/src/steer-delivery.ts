import type { Context } from '@pi/context';
import type { QueueItem } from '@pi/agent-contract';
import type { SessionWriter } from './session-writer';

export interface SteerBoundary {
  readonly operationId: string;
  readonly writer: SessionWriter;
  readonly takeSteers: () => QueueItem[];
  readonly eventContext: Context;
  /** Whether the run makes another model request after this boundary. */
  readonly hasNextTurn: boolean;
  readonly aborted: () => boolean;
}

/**
 * The turn boundary: every steer that came during the turn joins the branch as a user message naming its queue item
 * (its durable delivery), so the next model request carries it. Nothing is taken when no request follows (the run is
 * aborted, or at its last turn): the steers then wait for the next run. Returns how many were delivered.
 */
export async function deliverSteers(boundary: SteerBoundary): Promise<number> {
  if (!boundary.hasNextTurn || boundary.aborted()) return 0;
  const { operationId, writer, eventContext } = boundary;
  const steers = boundary.takeSteers();
  for (const { id: queueItemId, message } of steers)
    await writer.append({ kind: 'message', message, operationId, queueItemId }, 'buffered', eventContext);
  return steers.length;
}
