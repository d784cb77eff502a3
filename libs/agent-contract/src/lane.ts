import type { Context } from '@pi/context';
import type { Result } from 'neverthrow';
import type { SessionEntry } from './entries';
import type { AgentMessage, JsonObject, UserMessage } from './messages';
import type { ThinkingLevel } from './thinking-level';
import type { QueueAcceptance, QueueItem, QueueOptions, QueueRejection, WithdrawRejection } from './queue';
import type { SessionFileFault } from './session-file-fault';

/** The settings a run uses, read once when its prompt is accepted (a later change cannot affect it). */
export interface RunSettings {
  model: { provider: string; modelId: string } | null;
  thinkingLevel: ThinkingLevel;
}

export type RunOutcome = { outcome: 'completed' | 'aborted' | 'failed'; error: string | null };

export type PromptRejection =
  | { code: 'busy'; message: string; operationId: string }
  | { code: 'no_model'; message: string }
  | { code: 'invalid_message'; message: string }
  /** Nothing was recorded and no run started: send it again once the file can be written. */
  | { code: 'session_file_unwritable'; message: string }
  | PromptTooLarge;

/**
 * The message alone is estimated (characters / 4) at more tokens than the selected model's context window: no
 * request could carry it, and compaction would only fold it into a summary. Nothing was recorded.
 */
export interface PromptTooLarge {
  code: 'too_large';
  message: string;
  tokens: number;
  contextWindow: number;
}

/**
 * Why a plugin's message was not recorded: a run is in progress (its messages must stay together, so the message
 * waits until it settles), or the message is not a user message with some text.
 */
export type AppendMessageRejection =
  | { code: 'busy'; message: string; operationId: string }
  | { code: 'invalid_message'; message: string };

/** What a caller may attach to a prompt. */
export interface PromptOptions {
  /**
   * The client's own id for this send (1–128 of `[A-Za-z0-9_-]`), recorded durably with the run. A later prompt
   * with the same id starts nothing: it answers with the first run's acceptance, `duplicate: true`.
   */
  clientOperationId?: string;
}

/** A prompt's acceptance: the run's id; `duplicate` when the client operation id named a run already accepted. */
export interface PromptAcceptance {
  operationId: string;
  duplicate: boolean;
}

export type AbortRejection = { code: 'unknown_operation' | 'already_settled'; message: string };

/** The main lane: one run at a time, durable from acceptance to settlement. */
export interface AgentLane {
  /** Accepts the messages and starts a run; resolves at acceptance with its operation id, not at settlement.
   *  Aborting `context` cancels only this invocation: the run goes on, nothing durable is written. */
  prompt(
    messages: readonly UserMessage[],
    context: Context,
    options?: PromptOptions,
  ): Promise<Result<PromptAcceptance, PromptRejection>>;
  /**
   * Durable cancellation: `cancel_requested` is written and synced first, then the run settles as `aborted`. Every
   * queued item is withdrawn with it (reason `aborted`): after Esc nothing starts by itself.
   */
  requestAbort(operationId: string, context: Context): Promise<Result<void, AbortRejection>>;
  /**
   * A message for the run in progress, delivered at its next turn boundary (after that turn's tool calls, before
   * the next model request); with no run in progress and nothing queued it starts a run at once, as `prompt` does.
   */
  steer(
    message: UserMessage,
    context: Context,
    options?: QueueOptions,
  ): Promise<Result<QueueAcceptance, QueueRejection>>;
  /** A message that starts a run of its own once the run in progress (and every item before it) is done. */
  followUp(
    message: UserMessage,
    context: Context,
    options?: QueueOptions,
  ): Promise<Result<QueueAcceptance, QueueRejection>>;
  /** Takes a queued item out, durably; withdrawing one already withdrawn resolves (a retry is harmless). */
  withdraw(itemId: string, context: Context): Promise<Result<void, WithdrawRejection>>;
  /** What waits, in delivery order: the steers, then the follow-ups, each in the order they came. */
  readonly queue: readonly QueueItem[];
  /** The running operation, if any. */
  readonly running: string | null;
  /** Resolves when that run settles (at once for a run already settled in this session). */
  settled(operationId: string): Promise<RunOutcome>;
}

/** A read view of the durable tree. */
export interface SessionTree {
  readonly sessionId: string;
  entries(): readonly SessionEntry[];
  /** Root-to-leaf path of the current branch. */
  branch(): readonly SessionEntry[];
  /** Every message of the current branch; a request sends them from the latest compaction on (see compaction.ts). */
  messages(): AgentMessage[];
  readonly leafId: string | null;
}

export interface ToolCallInfo {
  operationId: string;
  toolCallId: string;
  toolName: string;
  arguments: JsonObject;
}

/** `before_tool` may block a call; a hook that throws blocks it too (fail closed). */
export type BeforeToolHook = (
  call: ToolCallInfo,
  context: Context,
) => Promise<void | { block: string }> | void | { block: string };

/** Semantic, non-durable progress events; the durable record is the entries. */
export type HarnessEvent =
  | { type: 'run_started'; operationId: string }
  | { type: 'text_delta'; operationId: string; delta: string }
  | { type: 'entry_appended'; operationId: string | null; entry: SessionEntry }
  | { type: 'tool_started'; operationId: string; toolCallId: string; toolName: string; arguments: JsonObject }
  | { type: 'run_settled'; operationId: string; outcome: RunOutcome }
  /** The queue changed (an item added, delivered, started or withdrawn); `operationId` is the run in progress. */
  | { type: 'queue_changed'; operationId: string | null; queue: readonly QueueItem[] }
  /**
   * The session file became unwritable (`fault`), its fault changed, or it is writable again (`null`). It is the
   * session's, not a run's: `operationId` is always null.
   */
  | { type: 'session_file_fault'; operationId: null; fault: SessionFileFault | null }
  /**
   * The model has sent nothing for `silentMs` while a request of the run is open (once per silence, after the
   * harness's notice threshold); `silentMs: null` when it speaks again or the request ends.
   */
  | { type: 'model_waiting'; operationId: string; silentMs: number | null };
