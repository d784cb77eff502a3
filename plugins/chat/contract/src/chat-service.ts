import { z } from 'zod';
import type { Context } from '@pi/context';
import { defineRemoteService, type RemoteEvents, type RemoteState } from '@pi/remote';
import { chatEventSchema, streamingCheckpointSchema, type ChatEvent, type StreamingCheckpoint } from './chat-events';
import {
  historyPageSchema,
  historyRequestSchema,
  recentTranscriptSchema,
  transcriptHeadSchema,
  type HistoryRequest,
  type TranscriptHead,
  type TranscriptPage,
} from './transcript-window';

/** What a presentation sends: the user's text. The session builds the model message from it. */
export interface PromptRequest {
  text: string;
}

/** Why a prompt was not accepted: the lane's rejection, passed through with its stable code. */
export const PROMPT_REJECTION_CODES = {
  busy: 'busy',
  no_model: 'no_model',
  invalid_message: 'invalid_message',
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
  readonly events: RemoteEvents<ChatEvent>;
  prompt(request: PromptRequest, context: Context): Promise<PromptResponse>;
  /**
   * Durable cancellation of a run: resolves once `cancel_requested` is written, or at once when the run has
   * already settled (so a retry after an uncertain disconnect is harmless). An operation this session never
   * ran fails with `unknown_operation`.
   */
  requestAbort(operationId: string, context: Context): Promise<void>;
  /**
   * Entries of the current branch before index `before`, newest last: at most `limit` (≤ MAX_HISTORY_LIMIT), fewer
   * when they pass TRANSCRIPT_PAGE_CHARS. The answer names its branch; an empty page means nothing is before.
   */
  history(request: HistoryRequest, context: Context): Promise<TranscriptPage>;
}

/** How many deltas pass between two checkpoints of the `streaming` cell (after the segment's first). */
export const CHECKPOINT_EVERY = 32;

/** The longest prompt text accepted, in UTF-16 code units (1 Mi: a large paste, well under the 16 MiB frame). */
export const MAX_PROMPT_TEXT_LENGTH = 1_048_576;
/** The longest operation id `requestAbort` accepts; the session's own ids are far shorter. */
export const MAX_OPERATION_ID_LENGTH = 256;

export const promptRequestSchema: z.ZodType<PromptRequest> = z.object({
  text: z.string().max(MAX_PROMPT_TEXT_LENGTH),
});

export const promptResponseSchema: z.ZodType<PromptResponse> = z.object({
  accepted: z.boolean(),
  operationId: z.string().nullable(),
  error: z.object({ code: z.enum(['busy', 'no_model', 'invalid_message']), message: z.string() }).nullable(),
});

export const Chat = defineRemoteService<ChatService>('chat', {
  methods: {
    prompt: { args: [promptRequestSchema], result: promptResponseSchema },
    requestAbort: { args: [z.string().min(1).max(MAX_OPERATION_ID_LENGTH)], result: z.void() },
    history: { args: [historyRequestSchema], result: historyPageSchema },
  },
  // A snapshot installs cells in this order: `recent` before the `transcript` head that may run ahead of it.
  state: {
    recent: recentTranscriptSchema,
    transcript: transcriptHeadSchema,
    streaming: streamingCheckpointSchema.nullable(),
  },
  events: { events: chatEventSchema },
});
