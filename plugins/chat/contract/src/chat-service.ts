import { z } from 'zod';
import type { Context } from '@pi/context';
import { defineRemoteService, type RemoteEvents, type RemoteState } from '@pi/remote';
import { compactRequestSchema, compactResultSchema, type CompactRequest, type CompactResult } from './chat-compaction';
import { chatEventSchema, streamingCheckpointSchema, type ChatEvent, type StreamingCheckpoint } from './chat-events';
import { exportRequestSchema, exportResultSchema, type ExportRequest, type ExportResult } from './chat-export';
import { chatQueueSchema, queueResponseSchema, type ChatQueue, type QueueResponse } from './chat-queue';
import {
  shellProgressSchema,
  shellRequestSchema,
  shellResultSchema,
  type ShellProgress,
  type ShellRequest,
  type ShellResult,
} from './chat-shell';
import {
  modelWaitSchema,
  sessionInfoSchema,
  sessionUsageSchema,
  storageStatusSchema,
  type ModelWait,
  type SessionInfo,
  type SessionUsage,
  type StorageStatus,
} from './chat-status';
import {
  historyPageSchema,
  historyRequestSchema,
  recentTranscriptSchema,
  transcriptHeadSchema,
  type HistoryRequest,
  type TranscriptHead,
  type TranscriptPage,
} from './transcript-window';

/**
 * What a presentation sends with `prompt`, `steer` or `followUp`: the user's text, and optionally its own id for
 * this send (1–128 characters of `[A-Za-z0-9_-]`, one namespace for the three). The session builds the model message
 * from the text. Sending the same `operationId` again never starts a second run or queues a second message, so a
 * client unsure whether a send arrived may simply send it again.
 */
export interface PromptRequest {
  text: string;
  operationId?: string;
}

/** Why a prompt was not accepted: the lane's rejection, passed through with its stable code. */
export const PROMPT_REJECTION_CODES = {
  busy: 'busy',
  no_model: 'no_model',
  invalid_message: 'invalid_message',
  /** The session file cannot be written: nothing was recorded, no run started (see SESSION_FILE_UNWRITABLE). */
  session_file_unwritable: 'session_file_unwritable',
  /** The text alone is more than the model's context window holds; the message gives the estimate and the window. */
  too_large: 'too_large',
} as const;
export type PromptRejectionCode = (typeof PROMPT_REJECTION_CODES)[keyof typeof PROMPT_REJECTION_CODES];

/**
 * The answer to `prompt`, at acceptance (not at settlement). Accepted: `operationId` names the new run and
 * `error` is null. Rejected: `error` says why; for `busy`, `operationId` names the run that is in the way (so
 * the client can offer to abort it), otherwise it is null.
 */
export interface PromptResponse {
  accepted: boolean;
  operationId: string | null;
  error: { code: PromptRejectionCode; message: string } | null;
  /** True when the request's `operationId` was sent before: this is the first send's run, nothing new started. */
  duplicate?: boolean;
}

/** Which operation a client asks about: the id it sent with `prompt`, or the run id the session answered with. */
export interface OperationRequest {
  operationId: string;
}

/** An operation's state; `unknown` means this session never accepted it (a resend with the same id is safe). */
export const OPERATION_STATES = {
  running: 'running',
  completed: 'completed',
  aborted: 'aborted',
  failed: 'failed',
  unknown: 'unknown',
} as const;
export type OperationState = (typeof OPERATION_STATES)[keyof typeof OPERATION_STATES];

/** The answer to `operation`: its state, and the settled run's error (null otherwise). */
export interface OperationStatus {
  state: OperationState;
  error: string | null;
}

/**
 * The session's chat authority, as presentations see it.
 *
 * Late-join rule. A client hydrates `recent`, `transcript` and `streaming` in one atomic snapshot; every later
 * state change and event of this service arrives after it, in order.
 *
 * The durable transcript (use `TranscriptReplica`, which does all of this):
 * 1. start from the `recent` checkpoint: the newest entries as of the last checkpoint, which may be behind;
 * 2. `transcript.total` says how many entries the branch has now: fetch the ones between with `history`;
 * 3. apply each `appended` event at its index (one that arrives ahead of a gap waits for the gap to be filled);
 * 4. a `branch` other than the one held means the sequence was replaced: start again from step 1;
 * 5. older entries, when the reader scrolls up, come from `history` too.
 * No change sends more than one entry, except `recent` every TRANSCRIPT_CHECKPOINT_EVERY entries.
 *
 * "Text so far" of the open segment:
 * 1. start from the `streaming` checkpoint (`streamingViewFrom`);
 * 2. apply each `events` item with `applyChatEvent`: a delta whose `offset` is at most the text held extends
 *    it (the part already held is skipped); a delta whose `offset` is beyond it is a gap, and the view waits
 *    for the segment's `final` instead of guessing; `final` and `settled` end the segment;
 * 3. a newer checkpoint of the same segment (`applyChatCheckpoint`) may close a gap early.
 */
export interface ChatService {
  /** The newest TRANSCRIPT_WINDOW entries, re-set every TRANSCRIPT_CHECKPOINT_EVERY entries and on a new branch. */
  readonly recent: RemoteState<TranscriptPage>;
  /** The branch, its length and the run in progress: set with every appended entry. */
  readonly transcript: RemoteState<TranscriptHead>;
  /** The open segment's text, checkpointed at its first delta and every CHECKPOINT_EVERY deltas; null when none. */
  readonly streaming: RemoteState<StreamingCheckpoint | null>;
  /** The steers and follow-ups waiting for the run in progress, in delivery order. */
  readonly queue: RemoteState<ChatQueue>;
  /** Whether the session file can be written; a fault is shown by every client until a write succeeds. */
  readonly storage: RemoteState<StorageStatus>;
  /** The run in progress waiting on a silent model, or null. */
  readonly waiting: RemoteState<ModelWait | null>;
  /** What the session's model requests used in all, and how full the last one's context was. */
  readonly usage: RemoteState<SessionUsage>;
  /** The user's shell command running now (`shell`) with the tail of its output so far, or null. */
  readonly shellRun: RemoteState<ShellProgress | null>;
  /** The session's id, file, entry and message counts and usage (for `/session`). */
  info(context: Context): Promise<SessionInfo>;
  readonly events: RemoteEvents<ChatEvent>;
  /** Starts a run; refused as `busy` while one is in progress (steer or follow up then). */
  prompt(request: PromptRequest, context: Context): Promise<PromptResponse>;
  /**
   * Tells the run in progress: the text reaches the model at its next turn boundary (after that turn's tool calls,
   * before the next model request). With no run in progress and nothing queued, it starts a run at once.
   */
  steer(request: PromptRequest, context: Context): Promise<QueueResponse>;
  /** Queues a prompt that starts its own run once the run in progress (and everything queued before) is done. */
  followUp(request: PromptRequest, context: Context): Promise<QueueResponse>;
  /**
   * Takes a waiting item out of the queue, for every client. Withdrawing it again resolves; one already delivered
   * fails with `queue_item_consumed`, one never queued here with `unknown_queue_item`.
   */
  withdraw(queueItemId: string, context: Context): Promise<void>;
  /**
   * Durable cancellation of a run: resolves once `cancel_requested` is written, or at once when the run has
   * already settled (so a retry after an uncertain disconnect is harmless). An operation this session never
   * ran fails with `unknown_operation`. Everything queued is withdrawn with it: nothing starts after an abort.
   */
  requestAbort(operationId: string, context: Context): Promise<void>;
  /** The state of an operation, by the client's id or the run's: for a client that lost its connection mid-send. */
  operation(request: OperationRequest, context: Context): Promise<OperationStatus>;
  /**
   * Entries of the current branch before index `before`, newest last: at most `limit` (≤ MAX_HISTORY_LIMIT), fewer
   * when they pass TRANSCRIPT_PAGE_CHARS. The answer names its branch; an empty page means nothing is before.
   */
  history(request: HistoryRequest, context: Context): Promise<TranscriptPage>;
  /**
   * Summarizes the older part of the branch into a compaction entry with the selected model; later requests send
   * the summary and the kept tail. Refused (`busy`) while a run is in progress; fails with a COMPACT_ERROR_CODES
   * code, and then nothing was written.
   */
  compact(request: CompactRequest, context: Context): Promise<CompactResult>;
  /**
   * Runs the user's own shell command in the session's working directory (not a tool: no permission is asked) and
   * records it as a `shell` transcript entry; with `includeInContext` the model reads its output from the next prompt
   * on. Cancelling the call (Escape) kills the command and everything it started, and records what it printed.
   * Refused (`busy`) while a run is in progress or another command runs; fails with a SHELL_ERROR_CODES code.
   */
  shell(request: ShellRequest, context: Context): Promise<ShellResult>;
  /**
   * Writes the current branch as one self-contained HTML page (prompts, answers, thinking, tool calls and results,
   * shell commands; every text escaped) into the session's file system; fails with an EXPORT_ERROR_CODES code, and
   * then nothing was written.
   */
  exportHtml(request: ExportRequest, context: Context): Promise<ExportResult>;
}

/** How many deltas pass between two checkpoints of the `streaming` cell (after the segment's first). */
export const CHECKPOINT_EVERY = 32;

/** The longest prompt text accepted, in UTF-16 code units (1 Mi: a large paste, well under the 16 MiB frame). */
export const MAX_PROMPT_TEXT_LENGTH = 1_048_576;
/** The longest operation id `requestAbort` (or queue item id `withdraw`) accepts; the session's own are far shorter. */
export const MAX_OPERATION_ID_LENGTH = 256;

/** The longest client operation id `prompt` accepts (the session's own run ids are UUIDs, well within it). */
export const MAX_CLIENT_OPERATION_ID_LENGTH = 128;

const clientOperationIdSchema = z
  .string()
  .max(MAX_CLIENT_OPERATION_ID_LENGTH)
  .regex(/^[A-Za-z0-9_-]+$/);

export const promptRequestSchema: z.ZodType<PromptRequest> = z.object({
  text: z.string().max(MAX_PROMPT_TEXT_LENGTH),
  operationId: clientOperationIdSchema.optional(),
});

export const promptResponseSchema: z.ZodType<PromptResponse> = z.object({
  accepted: z.boolean(),
  operationId: z.string().nullable(),
  error: z
    .object({
      code: z.enum(['busy', 'no_model', 'invalid_message', 'session_file_unwritable', 'too_large']),
      message: z.string(),
    })
    .nullable(),
  duplicate: z.boolean().optional(),
});

export const operationRequestSchema: z.ZodType<OperationRequest> = z.object({ operationId: clientOperationIdSchema });

export const operationStatusSchema: z.ZodType<OperationStatus> = z.object({
  state: z.enum(['running', 'completed', 'aborted', 'failed', 'unknown']),
  error: z.string().nullable(),
});

export const Chat = defineRemoteService<ChatService>('chat', {
  methods: {
    prompt: { args: [promptRequestSchema], result: promptResponseSchema },
    steer: { args: [promptRequestSchema], result: queueResponseSchema },
    followUp: { args: [promptRequestSchema], result: queueResponseSchema },
    withdraw: { args: [z.string().min(1).max(MAX_OPERATION_ID_LENGTH)], result: z.void() },
    info: { args: [], result: sessionInfoSchema },
    requestAbort: { args: [z.string().min(1).max(MAX_OPERATION_ID_LENGTH)], result: z.void() },
    operation: { args: [operationRequestSchema], result: operationStatusSchema },
    history: { args: [historyRequestSchema], result: historyPageSchema },
    compact: { args: [compactRequestSchema], result: compactResultSchema },
    shell: { args: [shellRequestSchema], result: shellResultSchema },
    exportHtml: { args: [exportRequestSchema], result: exportResultSchema },
  },
  // A snapshot installs cells in this order: `recent` before the `transcript` head that may run ahead of it.
  state: {
    recent: recentTranscriptSchema,
    transcript: transcriptHeadSchema,
    streaming: streamingCheckpointSchema.nullable(),
    queue: chatQueueSchema,
    storage: storageStatusSchema,
    waiting: modelWaitSchema.nullable(),
    usage: sessionUsageSchema,
    shellRun: shellProgressSchema.nullable(),
  },
  events: { events: chatEventSchema },
});
