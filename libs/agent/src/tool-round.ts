import type { ToolCallPart, ToolResultMessage } from '@pi/agent-contract';

export interface ToolRound {
  calls: readonly ToolCallPart[];
  /** Sequential unless the named tool says parallel (unknown tools included: they run nothing anyway). */
  isParallel: (call: ToolCallPart) => boolean;
  run: (call: ToolCallPart) => Promise<ToolResultMessage>;
  /** Called once per call, strictly in call order. */
  record: (result: ToolResultMessage) => Promise<void>;
}

/**
 * Runs the tool calls of one assistant message. Consecutive parallel calls form a batch that runs
 * concurrently; a sequential call runs alone, after everything before it has finished. Results are
 * recorded in call order whatever order they finish in, so the transcript reads like the model's request.
 */
export async function runToolRound(round: ToolRound): Promise<void> {
  for (const batch of batches(round.calls, round.isParallel)) {
    const pending = batch.map((call) => round.run(call));
    // `run` never rejects (every failure is an error result); awaiting in order keeps the record in order.
    for (const result of pending) await round.record(await result);
  }
}

function batches(calls: readonly ToolCallPart[], isParallel: (call: ToolCallPart) => boolean): ToolCallPart[][] {
  const result: ToolCallPart[][] = [];
  let parallel: ToolCallPart[] = [];
  for (const call of calls) {
    if (isParallel(call)) {
      parallel.push(call);
      continue;
    }
    if (parallel.length > 0) result.push(parallel);
    parallel = [];
    result.push([call]);
  }
  if (parallel.length > 0) result.push(parallel);
  return result;
}
