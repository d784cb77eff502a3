import type { AgentLanePluginView } from '@pi/plugin-api';
import type { SessionTree } from '@pi/agent';
import type { OperationStatus } from '@pi/chat';

/**
 * The state of an operation named by the client's id (the `clientOperationId` of its `operation_started`) or by
 * the run's own id. Read from the durable tree, so it holds across restarts; a lookup is rare (a reconnect after
 * an uncertain send), so a scan of the entries is enough.
 */
export async function operationStatus(
  lane: AgentLanePluginView,
  tree: SessionTree,
  id: string,
): Promise<OperationStatus> {
  const runId = runOf(tree, id);
  if (runId === null) return { state: 'unknown', error: null };
  if (lane.running === runId) return { state: 'running', error: null };
  // Not running and on record: the lane knows its outcome (a restart settled any run a crash interrupted).
  const settled = await lane.settled(runId);
  return { state: settled.outcome, error: settled.error };
}

function runOf(tree: SessionTree, id: string): string | null {
  let byRunId: string | null = null;
  for (const entry of tree.entries()) {
    if (entry.kind !== 'operation_started') continue;
    // The client's id wins: it is what a client that never saw the answer knows.
    if (entry.clientOperationId === id) return entry.operationId;
    if (entry.operationId === id) byRunId = entry.operationId;
  }
  return byRunId;
}
