import { BACKGROUND_CONTEXT, RemoteError, type Context } from '@pi/plugin-api';
import {
  SESSION_PICKER_ERRORS,
  type SessionPickerEntry,
  type SessionPickerEvent,
  type SessionPickerService,
  type SessionPickerState,
  type UpstreamHealth,
} from '@pi/session-directory';
import { createRemoteEvents, createRemoteState, type AuthoritativeEvents, type AuthoritativeState } from '@pi/remote';

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

/** Three sessions of one project: the current one (updated 5 minutes ago), a newer idle one and an older closed one. */
export function threeSessions(): SessionPickerEntry[] {
  return [
    { sessionId: 's-current', title: 'fix the build', status: 'active', updatedAt: minutesAgo(5), isCurrent: true },
    { sessionId: 's-docs', title: 'write the docs', status: 'idle', updatedAt: minutesAgo(1), isCurrent: false },
    { sessionId: 's-old', title: 'old spike', status: 'closed', updatedAt: minutesAgo(3 * 60), isCurrent: false },
  ];
}

/**
 * A stand-in for the session's SessionPicker (the real one is @pi/session-directory-session, which a TUI may not
 * import). It keeps the list, records each call, and fails the way the real facade does.
 */
export interface StandInPicker extends SessionPickerService {
  readonly state: AuthoritativeState<SessionPickerState>;
  readonly events: AuthoritativeEvents<SessionPickerEvent>;
  /** `resume s-docs`, `create fix it`, `create (untitled)`, `rename s-current new name`, `remove s-old`, in call
   *  order. */
  readonly calls: string[];
  /** When set, the next call fails with it. */
  failNext: RemoteError | undefined;
  setUpstream(upstream: UpstreamHealth): void;
}

export function standInPicker(sessions: SessionPickerEntry[] = threeSessions()): StandInPicker {
  const state = createRemoteState<SessionPickerState>({ revision: 1, sessions, upstream: 'connected' });
  const events = createRemoteEvents<SessionPickerEvent>();
  const update = (next: SessionPickerEntry[], event: SessionPickerEvent, context: Context) => {
    state.set({ ...state.value, revision: state.value.revision + 1, sessions: next }, context);
    events.emit(event, context);
  };
  const check = (sessionId?: string) => {
    const failure = standIn.failNext;
    standIn.failNext = undefined;
    if (failure !== undefined) throw failure;
    if (state.value.upstream !== 'connected') {
      throw new RemoteError(SESSION_PICKER_ERRORS.unavailable, 'The coordinator is unreachable');
    }
    if (sessionId === undefined) return undefined;
    const entry = state.value.sessions.find((session) => session.sessionId === sessionId);
    if (entry === undefined) throw new RemoteError(SESSION_PICKER_ERRORS.unknownSession, `Not visible: ${sessionId}`);
    return entry;
  };
  let created = 0;
  const standIn: StandInPicker = {
    state,
    events,
    calls: [],
    failNext: undefined,
    setUpstream: (upstream) => state.set({ ...state.value, upstream }, BACKGROUND_CONTEXT),
    async create({ title, sessionId: adopted }, context) {
      const titled = title ?? '(untitled)';
      standIn.calls.push(adopted === undefined ? `create ${titled}` : `adopt ${adopted} ${titled}`);
      check();
      created += 1;
      const session: SessionPickerEntry = {
        sessionId: adopted ?? `s-new-${created}`,
        title: title ?? 'new session',
        status: 'active',
        updatedAt: new Date().toISOString(),
        isCurrent: false,
      };
      update([...state.value.sessions, session], { type: 'created', session }, context);
      return session;
    },
    async remove(sessionId, context) {
      standIn.calls.push(`remove ${sessionId}`);
      if (check(sessionId)?.isCurrent === true) {
        throw new RemoteError(SESSION_PICKER_ERRORS.currentSession, 'The current session cannot remove itself');
      }
      update(
        state.value.sessions.filter((session) => session.sessionId !== sessionId),
        { type: 'deleted', sessionId },
        context,
      );
    },
    async rename(sessionId, title, context) {
      standIn.calls.push(`rename ${sessionId} ${title}`);
      const session: SessionPickerEntry = { ...(check(sessionId) as SessionPickerEntry), title };
      update(
        state.value.sessions.map((other) => (other.sessionId === sessionId ? session : other)),
        { type: 'changed', session },
        context,
      );
      return session;
    },
    async resume(sessionId, context) {
      standIn.calls.push(`resume ${sessionId}`);
      const entry = check(sessionId) as SessionPickerEntry;
      const session: SessionPickerEntry = { ...entry, status: entry.status === 'closed' ? 'active' : entry.status };
      update(
        state.value.sessions.map((other) => (other.sessionId === sessionId ? session : other)),
        { type: 'changed', session },
        context,
      );
      return session;
    },
  };
  return standIn;
}
