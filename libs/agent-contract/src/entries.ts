import type { AgentMessage, JsonValue } from './messages';

/**
 * The durable session: an append-only tree of entries, one JSON object per line of a JSONL file.
 * Every entry names its parent, so branches (navigation) are possible; the leaf is the last appended
 * entry unless the session moved it.
 */
export interface EntryBase {
  id: string;
  parentId: string | null;
  /** ISO-8601. */
  timestamp: string;
}

export type SessionEntry = EntryBase &
  (
    | { kind: 'message'; message: AgentMessage; operationId: string | null }
    /**
     * A prompt was accepted: the run with this id starts. `clientOperationId` is the id the client sent with it,
     * if any (absent in files written before it existed), so a restarted session still recognises a resend.
     */
    | { kind: 'operation_started'; operationId: string; clientOperationId?: string }
    /** Durable cancellation: written (and synced) before the run is told to stop. */
    | { kind: 'cancel_requested'; operationId: string }
    | {
        kind: 'operation_settled';
        operationId: string;
        outcome: 'completed' | 'aborted' | 'failed';
        error: string | null;
      }
    /** A plugin's own durable record, namespaced by plugin id; invisible to the model. */
    | { kind: 'custom'; namespace: string; data: JsonValue }
  );

export type SessionEntryKind = SessionEntry['kind'];

/** The first line of a session file. */
export interface SessionHeader {
  type: 'session';
  version: 1;
  sessionId: string;
  cwd: string;
  createdAt: string;
}
