import { z } from 'zod';
import type { JsonObject, JsonValue } from '@pi/remote';
import { shellOutcomeShape, type ShellOutcome } from './chat-shell';

/**
 * The transcript a presentation renders: the current branch of the session as compact JSON entries, one per
 * durable entry that matters to a reader. Plugin-private (custom) entries are left out; each plugin renders
 * its own. `id` is the durable entry's id, stable for keyed rendering.
 */
export type TranscriptEntry =
  | { kind: 'user'; id: string; operationId: string | null; text: string }
  | AssistantTranscriptEntry
  | {
      kind: 'tool_result';
      id: string;
      operationId: string | null;
      toolCallId: string;
      toolName: string;
      text: string;
      /** The tool's structured details, for its renderer (for example the question tool's answer). */
      details: JsonValue;
      isError: boolean;
    }
  | { kind: 'run_started'; id: string; operationId: string }
  | { kind: 'abort_requested'; id: string; operationId: string }
  | { kind: 'run_settled'; id: string; operationId: string; outcome: RunOutcomeKind; error: string | null }
  | CompactionTranscriptEntry
  | ShellTranscriptEntry;

/**
 * The user's own shell command (`!command`, or `!!command` when `includeInContext` is false) and how it ended.
 * `output` is the kept tail (SHELL_OUTPUT_LIMITS); with `includeInContext` the model read it from the next prompt on.
 */
export interface ShellTranscriptEntry extends ShellOutcome {
  kind: 'shell';
  id: string;
  command: string;
  includeInContext: boolean;
}

/**
 * The branch was compacted here: later requests send `summary` in place of the messages before the kept tail.
 * Those messages stay in the transcript; this entry marks where the model's view of them became the summary.
 */
export interface CompactionTranscriptEntry {
  kind: 'compaction';
  id: string;
  /** The run it happened in (automatic), or null (manual). */
  operationId: string | null;
  trigger: 'auto' | 'manual';
  summary: string;
  instructions: string | null;
  /** Estimated tokens (characters / 4) of the messages a request carried before and after. */
  tokensBefore: number;
  tokensAfter: number;
}

/** One model message: its text parts joined, and the tools it called. */
export interface AssistantTranscriptEntry {
  kind: 'assistant';
  id: string;
  operationId: string | null;
  text: string;
  toolCalls: TranscriptToolCall[];
  stopReason: 'stop' | 'tool_calls' | 'length' | 'aborted' | 'error';
  /** The tokens (and cost, when priced) of the request that produced it, when the provider reported them. */
  usage?: TranscriptUsage;
}

export interface TranscriptUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  cost?: number;
}

export interface TranscriptToolCall {
  id: string;
  name: string;
  arguments: JsonObject;
}

export type RunOutcomeKind = 'completed' | 'aborted' | 'failed';

const operationId = z.string().nullable();
const jsonObject: z.ZodType<JsonObject> = z.record(z.string(), z.json());

export const transcriptToolCallSchema: z.ZodType<TranscriptToolCall> = z.object({
  id: z.string(),
  name: z.string(),
  arguments: jsonObject,
});

export const runOutcomeKindSchema = z.enum(['completed', 'aborted', 'failed']);

const tokens = z.number().int().min(0);

/** The four token counts of a usage, one request's or a session's totals. */
export const tokenCountFields = { input: tokens, output: tokens, cacheRead: tokens, cacheWrite: tokens };

export const transcriptUsageSchema: z.ZodType<TranscriptUsage> = z.strictObject({
  ...tokenCountFields,
  cost: z.number().min(0).optional(),
});

const assistantEntryObject = z.object({
  kind: z.literal('assistant'),
  id: z.string(),
  operationId,
  text: z.string(),
  toolCalls: z.array(transcriptToolCallSchema),
  stopReason: z.enum(['stop', 'tool_calls', 'length', 'aborted', 'error']),
  usage: transcriptUsageSchema.optional(),
});

export const assistantTranscriptEntrySchema: z.ZodType<AssistantTranscriptEntry> = assistantEntryObject;

export const transcriptEntrySchema: z.ZodType<TranscriptEntry> = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user'), id: z.string(), operationId, text: z.string() }),
  assistantEntryObject,
  z.object({
    kind: z.literal('tool_result'),
    id: z.string(),
    operationId,
    toolCallId: z.string(),
    toolName: z.string(),
    text: z.string(),
    details: z.json(),
    isError: z.boolean(),
  }),
  z.object({ kind: z.literal('run_started'), id: z.string(), operationId: z.string() }),
  z.object({ kind: z.literal('abort_requested'), id: z.string(), operationId: z.string() }),
  z.object({
    kind: z.literal('run_settled'),
    id: z.string(),
    operationId: z.string(),
    outcome: runOutcomeKindSchema,
    error: z.string().nullable(),
  }),
  z.object({
    kind: z.literal('compaction'),
    id: z.string(),
    operationId,
    trigger: z.enum(['auto', 'manual']),
    summary: z.string(),
    instructions: z.string().nullable(),
    tokensBefore: z.number().int().min(0),
    tokensAfter: z.number().int().min(0),
  }),
  z.object({
    kind: z.literal('shell'),
    id: z.string(),
    command: z.string(),
    includeInContext: z.boolean(),
    ...shellOutcomeShape,
  }),
]);
