import { z } from 'zod';
import { tokenCountFields } from './transcript';

/**
 * The stable code of a session file that cannot be written (a full disk, an I/O error, a read-only remount): a
 * prompt, steer or follow-up is refused with it in its response, and any other call of Chat or Tree that must
 * record something fails with it as its RemoteError code. Nothing was recorded; the next send tries again.
 */
export const SESSION_FILE_UNWRITABLE = 'session_file_unwritable' as const;

/** The `storage` state: whether the session can record what happens; every client shows a fault. */
export interface StorageStatus {
  /** Null while the session file can be written; set by a failed write, cleared by the next that succeeds. */
  fault: {
    code: typeof SESSION_FILE_UNWRITABLE;
    /** Names the file and the cause: "Cannot write the session file …: no space left on device (ENOSPC)". */
    message: string;
    /** The system error code (ENOSPC, EIO, EROFS, …), or `unknown`. */
    cause: string;
  } | null;
}

/**
 * The `waiting` state: the run in progress has heard nothing from the model for `silentMs` (set once a silence
 * passes the session's notice threshold, null again when the model speaks or the request ends). A client counts on from
 * `silentMs` with its own clock, so no update is sent per second.
 */
export interface ModelWait {
  operationId: string;
  silentMs: number;
}

export const storageStatusSchema: z.ZodType<StorageStatus> = z.object({
  fault: z.object({ code: z.literal(SESSION_FILE_UNWRITABLE), message: z.string(), cause: z.string() }).nullable(),
});

export const modelWaitSchema: z.ZodType<ModelWait> = z.object({
  operationId: z.string(),
  silentMs: z.number().int().min(0),
});

/**
 * The session's token totals over every answer in its file (every branch: what was spent), their cost where the
 * models' prices are known, and the tokens the latest answer's request held (prompt, cache and answer): how full
 * the context is.
 */
export type SessionUsage = {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** US dollars over the priced answers; 0 when none was priced. */
  cost: number;
  /** The latest answer's request, all tokens counted; null before any answer reported usage. */
  contextTokens: number | null;
};

export const EMPTY_SESSION_USAGE: SessionUsage = Object.freeze({
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  cost: 0,
  contextTokens: null,
});

const tokenTotal = z.number().int().min(0);

export const sessionUsageSchema: z.ZodType<SessionUsage> = z.strictObject({
  ...tokenCountFields,
  cost: z.number().min(0),
  contextTokens: tokenTotal.nullable(),
});

/** What `/session` shows: which session this is, where its file is, how much it holds and what it used. */
export type SessionInfo = {
  sessionId: string;
  /** The session's JSONL file. */
  file: string;
  /** Entries in the file (every branch), and messages by role. */
  entries: number;
  messages: { user: number; assistant: number; tool: number };
  usage: SessionUsage;
};

export const sessionInfoSchema: z.ZodType<SessionInfo> = z.strictObject({
  sessionId: z.string().min(1).max(256),
  file: z.string().min(1).max(4096),
  entries: tokenTotal,
  messages: z.strictObject({ user: tokenTotal, assistant: tokenTotal, tool: tokenTotal }),
  usage: sessionUsageSchema,
});
