import type { Context } from '@pi/context';
import type { RunOutcome, SessionTree } from '@pi/agent-contract';
import { errorMessage } from './error-text';
import { settlementBodies } from './interrupted-operations';
import { SessionFileUnwritable } from './session-file-fault';
import type { SessionWriter } from './session-writer';

/**
 * Writes a run's settlement, an error result first for any call left without a result (`why` it has none; the next
 * request must pair every call). Resolves with the outcome memory settles on: `outcome`, unless the settlement could not be
 * written — then the run failed, and on a session file fault the file is owed that settlement ahead of its next
 * entry, so a restart after the disk recovers agrees with what clients were told.
 */
export async function writeSettlement(
  parts: { readonly writer: SessionWriter; readonly tree: SessionTree },
  operationId: string,
  outcome: RunOutcome,
  eventContext: Context,
  why = 'the session file could not be written',
): Promise<RunOutcome> {
  const { writer, tree } = parts;
  try {
    await writer.appendAll(settlementBodies(tree.entries(), operationId, outcome, why), 'synced', eventContext);
    return outcome;
  } catch (error) {
    if (!(error instanceof SessionFileUnwritable))
      return { outcome: 'failed', error: `the settlement could not be written: ${errorMessage(error)}` };
    const unrecorded: RunOutcome =
      outcome.outcome === 'completed' ? { outcome: 'failed', error: error.message } : outcome;
    writer.owe(settlementBodies(tree.entries(), operationId, unrecorded, why));
    return unrecorded;
  }
}
