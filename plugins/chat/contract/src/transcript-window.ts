import { z } from 'zod';
import { transcriptEntrySchema, type TranscriptEntry } from './transcript';

/**
 * The transcript is replicated by position, not by whole value. Entry `index` counts the transcript entries of the
 * current branch from 0; `branch` names that sequence and changes whenever it is replaced (another leaf, or a
 * restarted session process), so indices are only ever compared within one branch.
 */

/** How many of the newest entries the `recent` checkpoint holds. */
export const TRANSCRIPT_WINDOW = 100;
/** `recent` is re-set when the branch's length reaches a multiple of this, and when the branch is replaced. */
export const TRANSCRIPT_CHECKPOINT_EVERY = 50;
/** The most entries one `history` call returns (the argument schema refuses a larger `limit`). */
export const MAX_HISTORY_LIMIT = 200;
/**
 * A page (`recent` or a `history` answer) stops before its entries pass this many characters of JSON, keeping at
 * least one entry, so a run of huge entries cannot make a frame the connection refuses; `firstIndex` says where
 * it stopped.
 */
export const TRANSCRIPT_PAGE_CHARS = 4 * 1024 * 1024;
/** The longest branch id; the session's own are 8 characters. */
export const MAX_BRANCH_ID_LENGTH = 64;

/** The `transcript` state cell: small, set on every appended entry. */
export interface TranscriptHead {
  branch: string;
  /** How many entries the branch has: the next entry's index. */
  total: number;
  /** The run in progress, or null: started and settled are durable entries, so this changes with them. */
  running: string | null;
}

/** Consecutive entries of one branch: `entries[i]` is the entry at index `firstIndex + i`. */
export interface TranscriptPage {
  branch: string;
  firstIndex: number;
  entries: TranscriptEntry[];
}

/** `history`: up to `limit` entries just before index `before` (a `before` past the end means the end). */
export interface HistoryRequest {
  before: number;
  limit: number;
}

const branch = z.string().min(1).max(MAX_BRANCH_ID_LENGTH);
const index = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

export const transcriptHeadSchema: z.ZodType<TranscriptHead> = z.object({
  branch,
  total: index,
  running: z.string().nullable(),
});

function pageSchema(maxEntries: number): z.ZodType<TranscriptPage> {
  return z.object({ branch, firstIndex: index, entries: z.array(transcriptEntrySchema).max(maxEntries) });
}

/** The `recent` state cell: the newest entries as of the last checkpoint. */
export const recentTranscriptSchema = pageSchema(TRANSCRIPT_WINDOW);
export const historyPageSchema = pageSchema(MAX_HISTORY_LIMIT);

export const historyRequestSchema: z.ZodType<HistoryRequest> = z.object({
  before: index,
  limit: z.number().int().min(1).max(MAX_HISTORY_LIMIT),
});
