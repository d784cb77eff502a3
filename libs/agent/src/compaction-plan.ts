import type { AgentMessage } from '@pi/agent-contract';
import { summaryMessage, type BranchContext, type ContextItem } from './context-window';
import { estimateMessagesTokens, estimateTokens } from './token-estimate';

/** Automatic compaction starts when a request would hold more than this share of the model's window. */
export const COMPACT_AT_RATIO = 0.8;
/** The kept tail holds at most this share of the window. */
export const KEEP_RATIO = 0.2;
/** The kept tail's size when the window is unknown (a manual compaction of a model without `contextWindow`). */
export const DEFAULT_KEEP_TOKENS = 20_000;
/** The conversation text a summary request carries is bounded to this share of the window. */
export const SUMMARY_INPUT_RATIO = 0.7;

/** Which messages a compaction summarizes and which it keeps. */
export interface CompactionPlan {
  readonly summarized: readonly ContextItem[];
  readonly kept: readonly ContextItem[];
  /** Estimated tokens of the context's messages as a request sends them now (the previous summary included). */
  readonly tokensBefore: number;
}

/** The kept tail's budget: a share of the window, and never more than half of what there is (so something goes). */
export function keepBudget(contextWindow: number | undefined, tokensBefore: number): number {
  const budget = contextWindow === undefined ? DEFAULT_KEEP_TOKENS : Math.floor(contextWindow * KEEP_RATIO);
  return Math.min(budget, Math.floor(tokensBefore / 2));
}

/**
 * Splits the context into what the summary replaces and the kept tail: the longest tail within `budget` that starts
 * at a user or assistant message, so a tool call is never parted from its result (results follow their call).
 * When no such tail fits, nothing is kept. Null when nothing would be summarized.
 */
export function planCompaction(context: BranchContext, contextWindow: number | undefined): CompactionPlan | null {
  const { items } = context;
  const sizes = items.map((item) => estimateTokens(item.message));
  const previous = context.compaction === null ? 0 : estimateTokens(summaryMessage(context.compaction.summary));
  const tokensBefore = sizes.reduce((sum, size) => sum + size, previous);
  const budget = keepBudget(contextWindow, tokensBefore);
  // suffix[i]: the tokens of items i … n-1.
  const suffix = new Array<number>(items.length + 1).fill(0);
  for (let index = items.length - 1; index >= 0; index -= 1)
    suffix[index] = (suffix[index + 1] ?? 0) + (sizes[index] ?? 0);
  let cut = items.length;
  for (let index = 1; index < items.length; index += 1) {
    if (items[index]?.message.role !== 'tool' && (suffix[index] ?? 0) <= budget) {
      cut = index;
      break;
    }
  }
  if (cut === 0 || items.length === 0) return null;
  return { summarized: items.slice(0, cut), kept: items.slice(cut), tokensBefore };
}

/** The estimated tokens a request sends after the compaction: the new summary and the kept tail. */
export function tokensAfter(summary: string, kept: readonly ContextItem[]): number {
  const messages: AgentMessage[] = [summaryMessage(summary), ...kept.map((item) => item.message)];
  return estimateMessagesTokens(messages);
}
