import {
  BACKGROUND_CONTEXT,
  withAbortSignal,
  withTelemetryContext,
  type Context,
  type TelemetryContext,
} from '@pi/context';
import type { QueueItem, RunOutcome } from '@pi/agent-contract';
import { runTurns, type ResumePoint, type RunPlan } from './agent-run';
import { createDeferred, type Deferred } from './deferred';
import { errorMessage } from './error-text';
import { eventDeliveryContext, type HarnessEventHub } from './harness-events';
import type { HarnessHooks } from './harness-hooks';
import type { HarnessOptions } from './harness-types';
import type { LaneQueue } from './lane-queue';
import { DEFAULT_MODEL_WAIT_NOTICE_MS } from './model-silence';
import { writeSettlement } from './run-settlement';
import { SessionFileUnwritable } from './session-file-fault';
import type { SessionTreeState } from './session-tree';
import type { SessionWriter } from './session-writer';

/** The lane's run: claimed in one synchronous step, settled once. */
export interface ActiveRun {
  readonly operationId: string;
  /** The run's own cancellation: only requestAbort (durably) and close (in memory) abort it. */
  readonly controller: AbortController;
  /** Settling: the outcome is decided and being written; it can no longer be aborted. */
  phase: 'running' | 'settling';
  /** The durable cancel_requested write, once requestAbort accepted a cancellation. */
  cancel: Promise<unknown> | null;
  readonly settled: Deferred<RunOutcome>;
}

export function newRun(operationId: string): ActiveRun {
  return { operationId, controller: new AbortController(), phase: 'running', cancel: null, settled: createDeferred() };
}

/** What a run needs of its lane. */
export interface RunLane {
  readonly writer: SessionWriter;
  readonly tree: SessionTreeState;
  readonly hooks: HarnessHooks;
  readonly events: HarnessEventHub;
  readonly options: HarnessOptions;
  /** The lane's queue: steers are delivered at the run's turn boundaries; an abort withdraws everything queued. */
  readonly queue: Pick<LaneQueue, 'takeSteers' | 'putBack' | 'withdrawAll'>;
  /** Whether the harness is closing: a run stopped by it writes nothing more. */
  closing(): boolean;
}

/**
 * Runs `plan` under a root span of its own, linked to the calls that sent its messages (a run outlives them), and
 * makes its outcome durable. Never rejects: an append that failed (or a registry that threw) ends the run as failed.
 * Resolves with the outcome memory settles on and the context its events went with.
 */
export async function executeRun(
  lane: RunLane,
  run: ActiveRun,
  plan: RunPlan,
  links: readonly TelemetryContext[],
  resume?: ResumePoint,
): Promise<{ outcome: RunOutcome; eventContext: Context }> {
  const { operationId } = plan;
  const model = `${plan.provider.id}/${plan.modelId}`;
  const attributes = { 'pi.operation_id': operationId, 'pi.model': model };
  const rootSpan = { name: 'agent.run', attributes, links };
  return BACKGROUND_CONTEXT.telemetryContext.startSpan(rootSpan, async (span) => {
    const eventContext = withTelemetryContext(span, BACKGROUND_CONTEXT);
    const runContext = withAbortSignal(run.controller.signal, eventContext);
    lane.events.emit({ type: 'run_started', operationId }, eventContext);
    const ran = await turnsOf(lane, plan, runContext, eventContext, resume);
    const outcome = await settle(lane, run, ran, eventContext);
    span.setAttribute('pi.outcome', outcome.outcome);
    return { outcome, eventContext };
  });
}

async function turnsOf(
  lane: RunLane,
  plan: RunPlan,
  runContext: Context,
  eventContext: Context,
  resume: ResumePoint | undefined,
): Promise<RunOutcome> {
  const { writer, tree, hooks, events, options, queue } = lane;
  const emit = (event: Parameters<HarnessEventHub['emit']>[0]): void => events.emit(event, eventContext);
  try {
    const takeSteers = () => queue.takeSteers(eventContext);
    const returnSteers = (items: readonly QueueItem[]) => queue.putBack(items, eventContext);
    const modelWaitNoticeMs = options.modelWaitNoticeMs ?? DEFAULT_MODEL_WAIT_NOTICE_MS;
    return await runTurns(
      plan,
      {
        writer,
        tree,
        tools: options.tools,
        hooks,
        emit,
        eventContext,
        takeSteers,
        returnSteers,
        modelWaitNoticeMs,
        ...(options.projectEntry === undefined ? {} : { projectEntry: options.projectEntry }),
      },
      runContext,
      resume,
    );
  } catch (error) {
    return { outcome: 'failed', error: errorMessage(error) };
  }
}

/** Decides the outcome and makes it durable. Synchronous up to the write, so no abort slips in between. */
async function settle(lane: RunLane, run: ActiveRun, ran: RunOutcome, eventContext: Context): Promise<RunOutcome> {
  run.phase = 'settling';
  if (lane.closing()) return { outcome: 'aborted', error: 'the harness closed before the run settled' };
  // An accepted cancellation is the outcome, even if the run happened to finish while it was being written.
  const outcome: RunOutcome = run.cancel !== null ? { outcome: 'aborted', error: null } : ran;
  return writeSettlement(lane, run.operationId, outcome, eventContext);
}

/**
 * Cancels a running run: `cancel_requested` is written (once, however often this is called) and everything queued
 * withdrawn; the run is told to stop once that is on disk. Rejects when the record could not be written.
 */
export async function cancelRun(lane: RunLane, run: ActiveRun, context: Context): Promise<void> {
  if (run.cancel === null) {
    // Enqueued now, before any await, so the settlement (decided later) is written after it.
    const written = lane.writer.append(
      { kind: 'cancel_requested', operationId: run.operationId },
      'synced',
      eventDeliveryContext(context),
    );
    // Everything queued goes with it (docs/decisions.md, "Steer and follow-up"): nothing starts after an abort.
    const withdrawn = lane.queue.withdrawAll(context);
    // The run is told to stop only once the cancellation is on disk — or has failed to get there,
    // since a broken file must not keep alive a run the user asked to stop.
    run.cancel = Promise.all([written, withdrawn]).finally(() =>
      run.controller.abort(new Error('the run was aborted by requestAbort')),
    );
  }
  try {
    await run.cancel;
  } catch (error) {
    // The run stops all the same; a client is told, with the stable code, that the record did not follow.
    if (error instanceof SessionFileUnwritable) throw error;
    throw new Error(`the cancellation could not be recorded: ${errorMessage(error)}`, { cause: error });
  }
}
