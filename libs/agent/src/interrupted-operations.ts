import type { Context } from '@pi/context';
import type { SessionEntry } from '@pi/agent-contract';
import type { RunOutcome } from '@pi/agent-contract';
import type { ToolCallPart } from '@pi/agent-contract';
import type { SessionWriter } from './session-writer';
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
 * "interrupted". Returns one line per repaired operation for `recovery`.
 */
export async function settleInterruptedOperations(
  entries: readonly SessionEntry[],
  writer: SessionWriter,
  context: Context,
): Promise<string[]> {
  const report: string[] = [];
  for (const operationId of unsettledOperations(entries)) {
    const own = entries.filter((entry) => 'operationId' in entry && entry.operationId === operationId);
    for (const call of callsWithoutResults(own)) {
      const message = errorResult(call, 'Tool call interrupted: the session stopped before it returned');
      await writer.append({ kind: 'message', message, operationId }, 'buffered', context);
    }
    const cancelled = own.some((entry) => entry.kind === 'cancel_requested');
    const outcome: RunOutcome = { outcome: cancelled ? 'aborted' : 'failed', error: 'interrupted' };
    await writer.append({ kind: 'operation_settled', operationId, ...outcome }, 'synced', context);
    report.push(
      `operation ${operationId} was interrupted (started but never settled); settled it as ${outcome.outcome}`,
    );
  }
  return report;
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
