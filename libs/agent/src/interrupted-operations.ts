import type { Context } from '@pi/context';
import type { SessionEntry } from '@pi/agent-contract';
import type { RunOutcome } from '@pi/agent-contract';
import type { ToolCallPart } from '@pi/agent-contract';
import type { EntryBody, SessionWriter } from './session-writer';
import { errorResult } from './tool-call';

/** The settled outcome of every operation the file records as settled. */
export function settledOutcomes(entries: readonly SessionEntry[]): Map<string, RunOutcome> {
  const outcomes = new Map<string, RunOutcome>();
  for (const entry of entries) {
    if (entry.kind === 'operation_settled')
      outcomes.set(entry.operationId, { outcome: entry.outcome, error: entry.error });
  }
  return outcomes;
}

/**
 * Settles, durably, every operation the file shows started but never settled (the process died mid-run),
 * so the lane is usable again and the record says what happened. Tool calls left without a result get an
 * error result first: the next model request must pair every call with a result. An operation whose
 * cancellation was already durable settles `aborted`; any other settles `failed`. Both carry the error
 * "interrupted". Returns one line per repaired operation for `recovery`. `parked` (a run parked in a tool round, see
 * `findParkedRun`) is left for the lane to resume or settle once the tools are known.
 */
export async function settleInterruptedOperations(
  entries: readonly SessionEntry[],
  writer: SessionWriter,
  context: Context,
  parked: string | null = null,
): Promise<string[]> {
  const report: string[] = [];
  for (const operationId of unsettledOperations(entries)) {
    if (operationId === parked) continue;
    const outcome = interruptedOutcome(entries, operationId);
    await writer.appendAll(settlementBodies(entries, operationId, outcome, INTERRUPTED_WHY), 'synced', context);
    report.push(interruptedLine(operationId, outcome));
  }
  return report;
}

/** What a tool call a crash cut short is answered with. */
export const INTERRUPTED_WHY = 'the session stopped before it returned';

/** A run a crash cut short: `aborted` when its cancellation was already durable, else `failed`; "interrupted". */
export function interruptedOutcome(entries: readonly SessionEntry[], operationId: string): RunOutcome {
  const cancelled = entries.some((entry) => entry.kind === 'cancel_requested' && entry.operationId === operationId);
  return { outcome: cancelled ? 'aborted' : 'failed', error: 'interrupted' };
}

export function interruptedLine(operationId: string, outcome: RunOutcome): string {
  return `operation ${operationId} was interrupted (started but never settled); settled it as ${outcome.outcome}`;
}

/**
 * What settles an operation in the file: an error result for each of its tool calls left without one (`why` says
 * what stopped it), then `operation_settled` with the outcome.
 */
export function settlementBodies(
  entries: readonly SessionEntry[],
  operationId: string,
  outcome: RunOutcome,
  why: string,
): EntryBody[] {
  const own = entries.filter((entry) => 'operationId' in entry && entry.operationId === operationId);
  const results = callsWithoutResults(own).map((call): EntryBody => ({
    kind: 'message',
    message: errorResult(call, `Tool call interrupted: ${why}`),
    operationId,
  }));
  return [...results, { kind: 'operation_settled', operationId, ...outcome }];
}

function unsettledOperations(entries: readonly SessionEntry[]): string[] {
  const settled = settledOutcomes(entries);
  return entries.flatMap((entry) =>
    entry.kind === 'operation_started' && !settled.has(entry.operationId) ? [entry.operationId] : [],
  );
}

function callsWithoutResults(entries: readonly SessionEntry[]): ToolCallPart[] {
  const answered = new Set<string>();
  const calls: ToolCallPart[] = [];
  for (const entry of entries) {
    if (entry.kind !== 'message') continue;
    const { message } = entry;
    if (message.role === 'tool') answered.add(message.toolCallId);
    if (message.role === 'assistant')
      calls.push(...message.content.filter((part): part is ToolCallPart => part.type === 'tool_call'));
  }
  return calls.filter((call) => !answered.has(call.id));
}
