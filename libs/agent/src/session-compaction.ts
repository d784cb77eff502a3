import type { Context } from '@pi/context';
import {
  MAX_COMPACT_INSTRUCTIONS,
  type CompactOptions,
  type CompactionRejection,
  type CompactionResult,
  type ModelProvider,
  type RunSettings,
  type SessionCompaction,
} from '@pi/agent-contract';
import { err, ok, type Result } from 'neverthrow';
import { compactContext, contextWindowOf } from './compaction';
import { branchContext, type EntryProjection } from './context-window';
import { eventDeliveryContext } from './harness-events';
import { resolveRunModel } from './run-model';
import type { SessionTreeState } from './session-tree';
import type { SessionWriter } from './session-writer';

export interface SessionCompactionParts {
  readonly tree: SessionTreeState;
  readonly writer: SessionWriter;
  /** The run in progress, if any (the main lane's). */
  readonly running: () => string | null;
  readonly settings: () => RunSettings;
  readonly providers: () => ReadonlyMap<string, ModelProvider>;
  /** What the model reads of plugins' custom entries (none without it). */
  readonly projectEntry?: EntryProjection;
}

/**
 * Manual compaction (`/compact [instructions]`) with the selected model. It never holds the lane: it is refused
 * while a run is in progress, and a run (or a leaf move) that starts while the summary is being written wins — the
 * summary is dropped and nothing is written (`busy`), since it summarizes a branch that has moved on.
 */
export class HarnessCompaction implements SessionCompaction {
  readonly #parts: SessionCompactionParts;
  #compacting = false;

  constructor(parts: SessionCompactionParts) {
    this.#parts = parts;
  }

  async compact(options: CompactOptions, context: Context): Promise<Result<CompactionResult, CompactionRejection>> {
    const { tree, writer, running, settings, providers } = this.#parts;
    const instructions = checkInstructions(options.instructions);
    if (instructions.isErr()) return err(instructions.error);
    const busy = this.#busy();
    if (busy !== null) return err({ code: 'busy', message: busy });
    const model = resolveRunModel(settings(), providers());
    if (model.isErr()) return err(model.error);
    const { provider, modelId } = model.value;
    const leaf = tree.leafId;
    this.#compacting = true;
    try {
      const outcome = await compactContext(
        {
          context: branchContext(tree.branch(), this.#parts.projectEntry),
          provider,
          modelId,
          contextWindow: contextWindowOf(provider, modelId),
          instructions: instructions.value,
          trigger: 'manual',
          operationId: null,
        },
        {
          writer,
          mayWrite: () =>
            running() !== null || writer.pendingLeafId !== tree.leafId || movedOn(tree, leaf)
              ? 'The session moved on while the summary was being written: nothing was compacted'
              : null,
          eventContext: eventDeliveryContext(context),
        },
        context,
      );
      switch (outcome.kind) {
        case 'written':
          return ok(outcome.result);
        case 'nothing_to_compact':
          return err({ code: 'nothing_to_compact', message: 'Nothing to compact: the conversation is short enough' });
        case 'aborted':
          return err({ code: 'aborted', message: 'The compaction was aborted: nothing was compacted' });
        case 'failed':
          return err({ code: 'compaction_failed', message: `The summary could not be written: ${outcome.error}` });
        case 'refused':
          return err({ code: 'busy', message: outcome.message });
      }
    } finally {
      this.#compacting = false;
    }
  }

  /** Why a compaction cannot start now, or null. */
  #busy(): string | null {
    const { tree, writer, running } = this.#parts;
    const operation = running();
    if (operation !== null) return `Operation ${operation} is still running: compact once it settles`;
    if (this.#compacting) return 'A compaction is already in progress';
    // An entry on its way to the file (a leaf move) would put the compaction on another branch than it read.
    if (writer.pendingLeafId !== tree.leafId) return 'The session is writing: try again';
    return null;
  }
}

function checkInstructions(
  instructions: string | undefined,
): Result<string | null, Extract<CompactionRejection, { code: 'invalid_instructions' }>> {
  if (instructions === undefined) return ok(null);
  if (typeof instructions !== 'string' || instructions.length > MAX_COMPACT_INSTRUCTIONS)
    return err({
      code: 'invalid_instructions',
      message: `Instructions are text of at most ${MAX_COMPACT_INSTRUCTIONS} characters`,
    });
  const trimmed = instructions.trim();
  return ok(trimmed === '' ? null : trimmed);
}

/**
 * Whether the branch the summary was made of has changed since `leaf` was its end: the leaf left it, or a message
 * or another compaction followed. Entries the model never reads (a plugin's custom record) do not count.
 */
function movedOn(tree: SessionTreeState, leaf: string | null): boolean {
  const branch = tree.branch();
  const start = leaf === null ? 0 : branch.findIndex((entry) => entry.id === leaf) + 1;
  if (start === 0 && leaf !== null) return true;
  return branch.slice(start).some((entry) => entry.kind === 'message' || entry.kind === 'compaction');
}
