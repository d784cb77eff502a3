import type { Context } from '@pi/context';
import type { CompactionResult, ModelProvider, SessionEntry } from '@pi/agent-contract';
import { SUMMARY_INPUT_RATIO, planCompaction, tokensAfter, type CompactionPlan } from './compaction-plan';
import type { BranchContext } from './context-window';
import { requestSummary } from './summary-request';
import type { SessionWriter } from './session-writer';

/** One compaction to make: of which context, with which model, why. */
export interface CompactionJob {
  readonly context: BranchContext;
  readonly provider: ModelProvider;
  readonly modelId: string;
  readonly contextWindow: number | undefined;
  readonly instructions: string | null;
  readonly trigger: 'auto' | 'manual';
  /** The run it happens in (automatic), or null. */
  readonly operationId: string | null;
}

export type CompactionOutcome =
  | { kind: 'written'; result: CompactionResult }
  | { kind: 'nothing_to_compact' }
  | { kind: 'aborted' }
  | { kind: 'failed'; error: string }
  /** `mayWrite` said no once the summary was there: nothing was written. */
  | { kind: 'refused'; message: string };

export interface CompactionWrite {
  readonly writer: SessionWriter;
  /** Checked synchronously right before the entry is enqueued; a message refuses the write. */
  readonly mayWrite: () => string | null;
  /** Where `entry_appended` is delivered (telemetry only). */
  readonly eventContext: Context;
}

/**
 * Plans a compaction, asks the provider for the summary, and only then writes the `compaction` entry — so a
 * compaction that fails, is aborted or is overtaken writes nothing and changes nothing.
 */
export async function compactContext(
  job: CompactionJob,
  write: CompactionWrite,
  context: Context,
): Promise<CompactionOutcome> {
  const plan = planCompaction(job.context, job.contextWindow);
  if (plan === null) return { kind: 'nothing_to_compact' };
  const summary = await requestSummary(
    job.provider,
    {
      modelId: job.modelId,
      messages: plan.summarized.map((item) => item.message),
      previousSummary: job.context.compaction?.summary ?? null,
      instructions: job.instructions,
      maxInputTokens: job.contextWindow === undefined ? null : Math.floor(job.contextWindow * SUMMARY_INPUT_RATIO),
    },
    context,
  );
  if (summary.kind !== 'written') return summary;
  if (context.abortSignal?.aborted === true) return { kind: 'aborted' };
  const refusal = write.mayWrite();
  if (refusal !== null) return { kind: 'refused', message: refusal };
  const entry = await write.writer.append(entryBody(job, plan, summary.summary), 'synced', write.eventContext);
  return {
    kind: 'written',
    result: {
      entryId: entry.id,
      tokensBefore: plan.tokensBefore,
      tokensAfter: tokensAfter(summary.summary, plan.kept),
      summarizedMessages: plan.summarized.length,
      keptMessages: plan.kept.length,
    },
  };
}

function entryBody(job: CompactionJob, plan: CompactionPlan, summary: string) {
  return {
    kind: 'compaction',
    firstKeptEntryId: plan.kept[0]?.entryId ?? null,
    summary,
    instructions: job.instructions,
    trigger: job.trigger,
    model: `${job.provider.id}/${job.modelId}`,
    tokensBefore: plan.tokensBefore,
    tokensAfter: tokensAfter(summary, plan.kept),
    operationId: job.operationId,
  } satisfies Omit<Extract<SessionEntry, { kind: 'compaction' }>, 'id' | 'parentId' | 'timestamp'>;
}

/** The model's window from its provider's catalogue; unknown when absent or when the provider cannot list models. */
export function contextWindowOf(provider: ModelProvider, modelId: string): number | undefined {
  try {
    const window = provider.models().find((model) => model.modelId === modelId)?.contextWindow;
    return window !== undefined && Number.isFinite(window) && window > 0 ? window : undefined;
  } catch {
    return undefined;
  }
}
