import type { Context } from '@pi/context';
import type { Result } from 'neverthrow';
import type { AgentMessage } from './messages';

/**
 * Compaction (see docs/decisions.md, "Compaction"): the older part of the current branch is summarized into a
 * durable `compaction` entry, and later requests send the summary plus the kept tail instead of that part. The
 * session file and the transcript keep everything; only what goes to the model shrinks.
 */

/** What a provider is asked to summarize. */
export interface SummaryRequest {
  modelId: string;
  /** The messages the summary replaces, oldest first (after the previous summary, if there is one). */
  messages: readonly AgentMessage[];
  /** The summary of an earlier compaction that these messages continue; the new summary must carry it on. */
  previousSummary: string | null;
  /** What the user asked the summary to keep or focus on (`/compact <instructions>`), or null. */
  instructions: string | null;
  /**
   * A bound on the conversation text handed to the model, in estimated tokens (4 characters each), so the
   * summary request itself fits the model's window; null when the window is unknown.
   */
  maxInputTokens: number | null;
}

/** A manual compaction's options. */
export interface CompactOptions {
  /** What the summary should keep or focus on; at most MAX_COMPACT_INSTRUCTIONS characters. */
  instructions?: string;
}

/** What a compaction did: token counts are estimates (characters / 4 of the messages as sent). */
export interface CompactionResult {
  /** The durable `compaction` entry. */
  entryId: string;
  /** Estimated tokens of the messages a request carried before, and carries after. */
  tokensBefore: number;
  tokensAfter: number;
  /** How many messages the summary replaced, and how many were kept as they are. */
  summarizedMessages: number;
  keptMessages: number;
}

/** Why a manual compaction did nothing. Codes are stable; nothing is written for any of them. */
export type CompactionRejection =
  /** A run is in progress, another compaction is, or the session moved on while the summary was written. */
  | { code: 'busy'; message: string }
  | { code: 'no_model'; message: string }
  /** Nothing before the kept tail is left to summarize. */
  | { code: 'nothing_to_compact'; message: string }
  | { code: 'invalid_instructions'; message: string }
  /** The summary request failed (the provider's error, redacted). */
  | { code: 'compaction_failed'; message: string }
  /** The caller's context was aborted before the entry was written. */
  | { code: 'aborted'; message: string };

/** The longest instructions a manual compaction accepts, in UTF-16 code units. */
export const MAX_COMPACT_INSTRUCTIONS = 4000;

/** Manual compaction, as the harness offers it. */
export interface SessionCompaction {
  /**
   * Summarizes the older part of the current branch with the selected model and writes a `compaction` entry.
   * Refused (`busy`) while a run is in progress; a run that starts meanwhile wins, and nothing is written.
   */
  compact(options: CompactOptions, context: Context): Promise<Result<CompactionResult, CompactionRejection>>;
}
