import type { Context } from '@pi/context';
import type { QueueItem } from '@pi/agent-contract';
import type { SessionWriter } from './session-writer';

export interface SteerBoundary {
  readonly operationId: string;
  readonly writer: SessionWriter;
  readonly takeSteers: () => QueueItem[];
  /** Steers whose delivery could not be written: they wait again. */
  readonly returnSteers: (items: readonly QueueItem[]) => void;
  readonly eventContext: Context;
  /** Whether the run makes another model request after this boundary. */
  readonly hasNextTurn: boolean;
  readonly aborted: () => boolean;
}

/**
 * The turn boundary: every steer that came during the turn joins the branch as a user message naming its queue item
 * (its durable delivery), so the next model request carries it. Nothing is taken when no request follows (the run is
 * aborted, or at its last turn): the steers then wait for the next run, as they do when the delivery cannot be
 * written. Returns how many were delivered.
 */
export async function deliverSteers(boundary: SteerBoundary): Promise<number> {
  if (!boundary.hasNextTurn || boundary.aborted()) return 0;
  const { operationId, writer, eventContext } = boundary;
  const steers = boundary.takeSteers();
  if (steers.length === 0) return 0;
  const bodies = steers.map(({ id: queueItemId, message }) => ({
    kind: 'message' as const,
    message,
    operationId,
    queueItemId,
  }));
  try {
    // One write: the steers are delivered together, or all of them wait again.
    await writer.appendAll(bodies, 'buffered', eventContext);
  } catch (error) {
    boundary.returnSteers(steers);
    throw error;
  }
  return steers.length;
}
