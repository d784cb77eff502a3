import { z } from 'zod';
import { defineRemoteService, type Context, type RemoteEvents, type RemoteState } from '@pi/plugin-api';
import { sessionIdSchema as sessionId, sessionStatusSchema as status, sessionTitleSchema as title } from './fields';

/**
 * One session as the coordinator lists it. The upstream contract: ownerId, cwd and workspaceId may cross from the
 * coordinator to a session host; they never reach a presentation.
 */
export interface SessionRecordSummary {
  sessionId: string;
  title: string;
  workspaceId: string;
  ownerId: string;
  cwd: string;
  status: 'starting' | 'active' | 'idle' | 'closed';
  updatedAt: string;
}

export interface SessionDirectoryState {
  revision: number;
  sessions: SessionRecordSummary[];
}

export type SessionDirectoryEvent =
  | { type: 'created'; session: SessionRecordSummary }
  | { type: 'changed'; session: SessionRecordSummary }
  | { type: 'deleted'; sessionId: string };

export interface CreateSessionOptions {
  /** The title chosen for it; without one the session is named by its first prompt (`suggestTitle`). */
  title?: string;
  workspaceId: string;
  /** The project directory; only the local user names one. A session creates in its own directory. */
  cwd?: string;
  /** Registers an existing session file of that id (a fork) instead of starting a new session. */
  sessionId?: string;
}

/**
 * The coordinator's authoritative directory (upstream: consumed by session hosts and the user's CLI). Every call
 * is authorized against the identity the coordinator installed from the caller's credential; a session may act
 * only within its own workspace, and each connection is sent only the records it may see.
 */
export interface SessionDirectoryService {
  readonly state: RemoteState<SessionDirectoryState>;
  readonly events: RemoteEvents<SessionDirectoryEvent>;
  /** Creates the record and starts its session process; resolves once the process is connected. */
  create(options: CreateSessionOptions, context: Context): Promise<SessionRecordSummary>;
  /** Stops the session's process (if running) and removes its record. The session file stays on disk. */
  remove(sessionId: string, context: Context): Promise<void>;
  /** Starts the session's process if it is not running; resolves once it is connected. */
  resume(sessionId: string, context: Context): Promise<SessionRecordSummary>;
  /**
   * Stops the session's process and keeps its record (`resume` starts it again). A session running on another host
   * is asked to stop over its connection; one that does not go (it is connected to another replica, or too old to
   * be asked) is `session_running`.
   */
  stop(sessionId: string, context: Context): Promise<SessionRecordSummary>;
  /** Gives the session the title a person chose; nothing names it otherwise after this. */
  rename(sessionId: string, title: string, context: Context): Promise<SessionRecordSummary>;
  /**
   * The title a session's first prompt suggests for it: taken only while the session has none a person chose (and
   * only once). Resolves with the record, renamed or not.
   */
  suggestTitle(sessionId: string, title: string, context: Context): Promise<SessionRecordSummary>;
}

export const sessionRecordSummarySchema = z.strictObject({
  sessionId,
  title: z.string(),
  workspaceId: z.string(),
  ownerId: z.string(),
  cwd: z.string(),
  status,
  updatedAt: z.string(),
});

const directoryEvent = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('created'), session: sessionRecordSummarySchema }),
  z.strictObject({ type: z.literal('changed'), session: sessionRecordSummarySchema }),
  z.strictObject({ type: z.literal('deleted'), sessionId }),
]);

export const createSessionOptionsSchema = z.strictObject({
  title: title.optional(),
  workspaceId: z.string().min(1).max(200),
  cwd: z.string().min(1).max(4096).optional(),
  sessionId: sessionId.optional(),
});

export const SessionDirectory = defineRemoteService<SessionDirectoryService>('session-directory', {
  methods: {
    create: { args: [createSessionOptionsSchema], result: sessionRecordSummarySchema },
    remove: { args: [sessionId], result: z.void() },
    resume: { args: [sessionId], result: sessionRecordSummarySchema },
    stop: { args: [sessionId], result: sessionRecordSummarySchema },
    rename: { args: [sessionId, title], result: sessionRecordSummarySchema },
    suggestTitle: { args: [sessionId, title], result: sessionRecordSummarySchema },
  },
  state: {
    state: z.strictObject({ revision: z.number().int().min(0), sessions: z.array(sessionRecordSummarySchema) }),
  },
  events: { events: directoryEvent },
});
