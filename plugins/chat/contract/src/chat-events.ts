import { z } from 'zod';
import {
  assistantTranscriptEntrySchema,
  runOutcomeKindSchema,
  transcriptEntrySchema,
  type AssistantTranscriptEntry,
  type RunOutcomeKind,
  type TranscriptEntry,
} from './transcript';
import { MAX_BRANCH_ID_LENGTH } from './transcript-window';

/**
 * Streaming is split into segments: one per assistant message of a run, numbered from 0 within the run.
 * Offsets count UTF-16 code units (JavaScript string length) from the start of the segment's text.
 */
export interface StreamingCheckpoint {
  operationId: string;
  segment: number;
  /** The segment's text so far. */
  text: string;
  /** Always `text.length`: the offset the next delta of this segment carries. */
  offset: number;
}

/**
 * The `events` stream. `delta.offset` is the length of the segment's text before this delta, so a client that
 * holds text of length L applies a delta only when `offset <= L` (skipping what it already has) and knows it
 * missed something when `offset > L`. `final` is the authoritative replacement of the streamed segment (the
 * durable assistant entry), and `settled` ends the run. `appended` is every durable transcript entry, once, at
 * its index in the branch (see `TranscriptReplica`).
 */
export type ChatEvent =
  | { type: 'delta'; operationId: string; segment: number; offset: number; text: string }
  | { type: 'final'; operationId: string; segment: number; entry: AssistantTranscriptEntry }
  | { type: 'settled'; operationId: string; outcome: RunOutcomeKind; error: string | null }
  | { type: 'appended'; branch: string; index: number; entry: TranscriptEntry };

const segment = z.number().int().min(0);
const offset = z.number().int().min(0);

export const streamingCheckpointSchema: z.ZodType<StreamingCheckpoint> = z
  .object({ operationId: z.string(), segment, text: z.string(), offset })
  .refine((checkpoint) => checkpoint.offset === checkpoint.text.length, { message: 'offset must equal text.length' });

export const chatEventSchema: z.ZodType<ChatEvent> = z.discriminatedUnion('type', [
  z.object({ type: z.literal('delta'), operationId: z.string(), segment, offset, text: z.string() }),
  z.object({ type: z.literal('final'), operationId: z.string(), segment, entry: assistantTranscriptEntrySchema }),
  z.object({
    type: z.literal('settled'),
    operationId: z.string(),
    outcome: runOutcomeKindSchema,
    error: z.string().nullable(),
  }),
  z.object({
    type: z.literal('appended'),
    branch: z.string().min(1).max(MAX_BRANCH_ID_LENGTH),
    index: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    entry: transcriptEntrySchema,
  }),
]);
