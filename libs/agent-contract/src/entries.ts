import type { AgentMessage, JsonValue, UserMessage } from './messages';
import type { ThinkingLevel } from './thinking-level';
import type { QueueItemKind, QueueWithdrawReason } from './queue';

/**
 * The durable session: an append-only tree of entries, one JSON object per line of a JSONL file.
 * Every entry names its parent, so branches (navigation) are possible; the leaf is always the last appended
 * entry: a move of the leaf is itself an entry (`leaf_moved`), the child of the entry the leaf moved to.
 */
export interface EntryBase {
  id: string;
  parentId: string | null;
  /** ISO-8601. */
  timestamp: string;
}

export type SessionEntry = EntryBase &
  (
    | {
        kind: 'message';
        message: AgentMessage;
        operationId: string | null;
        queueItemId?: string;
        /** Set when a plugin recorded the message (see MessageOrigin); absent for prompts, answers and tool results. */
        origin?: MessageOrigin;
      }
    /**
     * A prompt was accepted: the run with this id starts. `clientOperationId` is the id the client sent with it,
     * if any (absent in files written before it existed), so a restarted session still recognises a resend.
     * `model` and `thinkingLevel` are what the run decided at acceptance (absent in files written before they were
     * kept), so a run parked in a tool round resumes after a restart with its own model, not the one selected then.
     */
    | {
        kind: 'operation_started';
        operationId: string;
        clientOperationId?: string;
        model?: { provider: string; modelId: string };
        thinkingLevel?: ThinkingLevel;
      }
    /** Durable cancellation: written (and synced) before the run is told to stop. */
    | { kind: 'cancel_requested'; operationId: string }
    | {
        kind: 'operation_settled';
        operationId: string;
        outcome: 'completed' | 'aborted' | 'failed';
        error: string | null;
      }
    /**
     * A steer or follow-up entered the queue (its timestamp is the item's `queuedAt`); `operationId` is the run in
     * progress then. It leaves the queue by `queue_withdrawn`, or by the user `message` entry that delivers it
     * (naming it as `queueItemId`: its consumption, durably).
     */
    | {
        kind: 'queue_added';
        itemId: string;
        queueKind: QueueItemKind;
        message: UserMessage;
        operationId: string | null;
        clientOperationId?: string;
        /** When the item was queued, as clients saw it (files written before it had it use the entry's timestamp). */
        queuedAt?: string;
      }
    /** A queued item left the queue unsent: withdrawn by a client, or cleared by `requestAbort`. */
    | { kind: 'queue_withdrawn'; itemId: string; reason: QueueWithdrawReason; operationId: string | null }
    /** A plugin's own durable record, namespaced by plugin id; invisible to the model. */
    | { kind: 'custom'; namespace: string; data: JsonValue }
    /**
     * The leaf moved to this entry's parent (null: before the first entry), away from `from`. It is the new leaf,
     * so the next entry branches from the parent and a restart restores the move; it is not a node of the tree
     * a reader sees (see SessionNavigation).
     */
    | { kind: 'leaf_moved'; from: string | null }
    /**
     * The branch up to here was compacted: requests built from a branch holding this entry send `summary` in place
     * of every message before `firstKeptEntryId` (null: before this entry), then the messages from there on. The
     * entries it replaces stay in the file. `operationId` is the run it happened in (automatic), or null (manual).
     * The token counts are estimates (characters / 4) of the messages a request carried before and after.
     */
    | {
        kind: 'compaction';
        firstKeptEntryId: string | null;
        summary: string;
        instructions: string | null;
        trigger: 'auto' | 'manual';
        /** `provider/modelId` that wrote the summary. */
        model: string;
        tokensBefore: number;
        tokensAfter: number;
        operationId: string | null;
      }
  );

export type SessionEntryKind = SessionEntry['kind'];

/**
 * A user message a plugin recorded between runs (for example the output of a `!command`): the model reads it from
 * the next request on like any message, and the plugin finds its own record in `data` to show the entry its way.
 */
export interface MessageOrigin {
  /** The plugin's id. */
  namespace: string;
  data: JsonValue;
}

/** The first line of a session file. */
export interface SessionHeader {
  type: 'session';
  version: 1;
  sessionId: string;
  cwd: string;
  createdAt: string;
  /** Set in a session forked from another: the session and the entry its history was copied up to. */
  forkedFrom?: { sessionId: string; entryId: string | null };
}
