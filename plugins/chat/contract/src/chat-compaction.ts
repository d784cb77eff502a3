import { z } from 'zod';

/**
 * Manual compaction (docs/decisions.md, "Compaction"): the older part of the branch is summarized with the selected
 * model into a durable compaction entry, and later requests send the summary and the kept tail instead. Nothing
 * leaves the transcript: it shows a `compaction` entry where it happened.
 */
export interface CompactRequest {
  /** What the summary should keep or focus on (`/compact <instructions>`). */
  instructions?: string;
}

/** What a compaction saved; token counts are estimates (characters / 4 of the messages as sent). */
export interface CompactResult {
  /** The compaction entry (in the transcript as a `compaction` entry). */
  entryId: string;
  tokensBefore: number;
  tokensAfter: number;
  summarizedMessages: number;
  keptMessages: number;
}

/** The RemoteError codes `compact` fails with; for every one of them nothing was written. */
export const COMPACT_ERROR_CODES = {
  /** A run is in progress, another compaction is, or a run started while the summary was written. */
  busy: 'busy',
  no_model: 'no_model',
  /** Nothing before the kept tail is left to summarize. */
  nothing_to_compact: 'nothing_to_compact',
  invalid_instructions: 'invalid_instructions',
  /** The summary request failed (the provider's error, redacted). */
  compaction_failed: 'compaction_failed',
  /** The call was cancelled before the entry was written. */
  aborted: 'aborted',
  /** The compaction entry could not be written (the session file's fault). */
  session_file_unwritable: 'session_file_unwritable',
} as const;
export type CompactErrorCode = (typeof COMPACT_ERROR_CODES)[keyof typeof COMPACT_ERROR_CODES];

/** The longest instructions `compact` accepts, in UTF-16 code units (the harness's own limit). */
export const MAX_COMPACT_INSTRUCTIONS_LENGTH = 4000;

const count = z.number().int().min(0);

export const compactRequestSchema: z.ZodType<CompactRequest> = z.object({
  instructions: z.string().max(MAX_COMPACT_INSTRUCTIONS_LENGTH).optional(),
});

export const compactResultSchema: z.ZodType<CompactResult> = z.object({
  entryId: z.string(),
  tokensBefore: count,
  tokensAfter: count,
  summarizedMessages: count,
  keptMessages: count,
});
