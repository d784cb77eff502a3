import { z } from 'zod';
import { defineRemoteService, type Context, type RemoteEvents, type RemoteState } from '@pi/plugin-api';
import type { SessionRecordSummary } from './directory';
import { sessionIdSchema as sessionId, sessionStatusSchema, sessionTitleSchema } from './fields';

/** One session as a presentation sees it: no owner, no directory, no workspace. */
export interface SessionPickerEntry {
  sessionId: string;
  title: string;
  status: SessionRecordSummary['status'];
  updatedAt: string;
  isCurrent: boolean;
}

/** Whether the list is live: `disconnected` while the coordinator is unreachable (the list is then stale), `absent`
 *  for a standalone session that has no coordinator at all. */
export type UpstreamHealth = 'connected' | 'disconnected' | 'absent';

export interface SessionPickerState {
  revision: number;
  sessions: SessionPickerEntry[];
  upstream: UpstreamHealth;
}

export type SessionPickerEvent =
  | { type: 'created'; session: SessionPickerEntry }
  | { type: 'changed'; session: SessionPickerEntry }
  | { type: 'deleted'; sessionId: string };

/**
 * The session host's facade over the directory, for its presentations (downstream): the sessions of this
 * session's workspace, redacted. While the coordinator is unreachable create, remove and resume fail with
 * `unavailable`; a session that is not in the list fails with `unknown_session`.
 */
export interface SessionPickerService {
  readonly state: RemoteState<SessionPickerState>;
  readonly events: RemoteEvents<SessionPickerEvent>;
  /**
   * A new session; with `sessionId`, a session file this session wrote (a fork) registered under that id. Without
   * a title it is named by its first prompt.
   */
  create(options: { title?: string; sessionId?: string }, context: Context): Promise<SessionPickerEntry>;
  remove(sessionId: string, context: Context): Promise<void>;
  /** Makes sure the session's process runs (to switch to it); resolves with its entry once it is connected. */
  resume(sessionId: string, context: Context): Promise<SessionPickerEntry>;
  /** Gives a session of this project (this one, say) a title the user chose; prompts no longer name it. */
  rename(sessionId: string, title: string, context: Context): Promise<SessionPickerEntry>;
}

/** The stable codes a picker call fails with, besides the transport's. */
export const SESSION_PICKER_ERRORS = Object.freeze({
  /** The coordinator is unreachable (or there is none): the list is stale and cannot change. */
  unavailable: 'unavailable',
  unknownSession: 'unknown_session',
  /** The current session cannot remove itself. */
  currentSession: 'current_session',
});

export const sessionPickerEntrySchema = z.strictObject({
  sessionId,
  title: z.string(),
  status: sessionStatusSchema,
  updatedAt: z.string(),
  isCurrent: z.boolean(),
});

export const SessionPicker = defineRemoteService<SessionPickerService>('session-picker', {
  methods: {
    create: {
      args: [z.strictObject({ title: sessionTitleSchema.optional(), sessionId: sessionId.optional() })],
      result: sessionPickerEntrySchema,
    },
    remove: { args: [sessionId], result: z.void() },
    resume: { args: [sessionId], result: sessionPickerEntrySchema },
    rename: { args: [sessionId, sessionTitleSchema], result: sessionPickerEntrySchema },
  },
  state: {
    state: z.strictObject({
      revision: z.number().int().min(0),
      sessions: z.array(sessionPickerEntrySchema),
      upstream: z.enum(['connected', 'disconnected', 'absent']),
    }),
  },
  events: {
    events: z.discriminatedUnion('type', [
      z.strictObject({ type: z.literal('created'), session: sessionPickerEntrySchema }),
      z.strictObject({ type: z.literal('changed'), session: sessionPickerEntrySchema }),
      z.strictObject({ type: z.literal('deleted'), sessionId }),
    ]),
  },
});
