import {
  BACKGROUND_CONTEXT,
  RemoteError,
  requireFleetCaller,
  type CodingAgentCoordinatorPluginContext,
  type Context,
  type FleetCaller,
  type RemoteViewer,
  type SessionRecord,
} from '@pi/plugin-api';
import { workspaceIdOf } from '@pi/connection-files';
import {
  SessionDirectory,
  type CreateSessionOptions,
  type SessionDirectoryEvent,
  type SessionDirectoryState,
  type SessionRecordSummary,
} from '@pi/session-directory';

/**
 * The coordinator facet: the authoritative session directory. Every call is authorized against the identity the
 * coordinator installed from the caller's credential (never against arguments): a session acts only within its
 * own workspace, the local user anywhere. Each connection is also sent only the records it may see.
 */
export async function sessionDirectoryCoordinatorFacet(context: CodingAgentCoordinatorPluginContext): Promise<void> {
  const { records, processes, files } = context.fleet;
  const state = context.remoteState<SessionDirectoryState>(
    { revision: 0, sessions: [] },
    {
      projectFor: (value, viewer) => ({
        ...value,
        sessions: value.sessions.filter((s) => mayView(viewer, s.workspaceId)),
      }),
      // Every connection of one workspace (and every user connection) sees the same directory: computed and
      // encoded once per change for all of them.
      projectionKey: viewOf,
    },
  );
  // The workspace of every record this directory listed, so a `deleted` event (which carries only the id) goes
  // only to the connections that could see the record.
  const workspaces = new Map<string, string>();
  const events = context.remoteEvents<SessionDirectoryEvent>({
    projectFor: (event, viewer) => {
      const workspaceId = event.type === 'deleted' ? workspaces.get(event.sessionId) : event.session.workspaceId;
      return workspaceId !== undefined && mayView(viewer, workspaceId) ? event : undefined;
    },
    projectionKey: viewOf,
  });

  function apply(sessions: SessionRecordSummary[], event: SessionDirectoryEvent, at: Context): void {
    for (const session of sessions) workspaces.set(session.sessionId, session.workspaceId);
    state.set({ revision: state.value.revision + 1, sessions }, at);
    events.emit(event, at);
  }

  function upsert(record: SessionRecord, at: Context): void {
    const session = toSummary(record);
    const known = state.value.sessions.some((s) => s.sessionId === session.sessionId);
    apply(
      known
        ? state.value.sessions.map((s) => (s.sessionId === session.sessionId ? session : s))
        : [...state.value.sessions, session],
      { type: known ? 'changed' : 'created', session },
      at,
    );
  }

  /** The record a caller may act on: unknown and foreign records are indistinguishable to a session. */
  function visible(caller: FleetCaller, sessionId: string): SessionRecordSummary {
    const target = state.value.sessions.find((s) => s.sessionId === sessionId);
    if (target === undefined && caller.kind === 'user') {
      throw new RemoteError('unknown_session', `No session ${sessionId}`);
    }
    if (target === undefined || (caller.kind === 'session' && target.workspaceId !== caller.session.workspaceId)) {
      throw notInWorkspace(sessionId);
    }
    return target;
  }

  /**
   * A session may register an existing session file only if it forked that file itself or the file names the
   * session's own workspace; a live record of another workspace, another project's file (say, of a removed
   * session) and no file at all get one and the same answer, so the call reveals nothing about other workspaces.
   */
  async function mayAdopt(caller: FleetCaller, sessionId: string, call: Context): Promise<void> {
    if (caller.kind !== 'session') return;
    const own = caller.session;
    const existing = await records.get(sessionId, call);
    if (existing !== undefined && existing.workspaceId !== own.workspaceId) throw notInWorkspace(sessionId);
    if (existing !== undefined) return; // its own workspace's record: the repository answers duplicate_session
    const origin = await files.origin(sessionId, call);
    const forkedHere = origin?.forkedFrom === own.sessionId;
    if (origin === undefined || (!forkedHere && origin.workspaceId !== own.workspaceId)) {
      throw notInWorkspace(sessionId);
    }
  }

  context.provide(SessionDirectory, {
    state,
    events,
    async create(options, call) {
      const caller = requireFleetCaller(call);
      const placement = await placementOf(caller, options, call);
      if (options.sessionId !== undefined) await mayAdopt(caller, options.sessionId, call);
      const adopted = options.sessionId === undefined ? {} : { sessionId: options.sessionId };
      // No title chosen: a placeholder, until the session's first prompt suggests one.
      const title =
        options.title === undefined ? { title: PROVISIONAL_TITLE, provisionalTitle: true } : { title: options.title };
      const record = await records.create({ ...title, ...placement, ...adopted }, call);
      upsert(record, call);
      try {
        return toSummary(await processes.start(record.sessionId, call));
      } catch (error) {
        // A create that could not start (or was cancelled) leaves nothing behind.
        await records.remove(record.sessionId, call).catch(() => undefined);
        apply(
          state.value.sessions.filter((s) => s.sessionId !== record.sessionId),
          { type: 'deleted', sessionId: record.sessionId },
          call,
        );
        throw error;
      }
    },
    async remove(sessionId, call) {
      const caller = requireFleetCaller(call);
      visible(caller, sessionId);
      if (caller.kind === 'session' && caller.session.sessionId === sessionId) {
        throw new RemoteError('current_session', 'A session cannot remove itself');
      }
      await processes.stop(sessionId, call);
      await records.remove(sessionId, call);
      apply(
        state.value.sessions.filter((s) => s.sessionId !== sessionId),
        { type: 'deleted', sessionId },
        call,
      );
    },
    async resume(sessionId, call) {
      visible(requireFleetCaller(call), sessionId);
      return toSummary(await processes.start(sessionId, call));
    },
    async stop(sessionId, call) {
      const caller = requireFleetCaller(call);
      visible(caller, sessionId);
      if (caller.kind === 'session' && caller.session.sessionId === sessionId) {
        throw new RemoteError('current_session', 'A session cannot stop itself');
      }
      await processes.stop(sessionId, call);
      const stopped = visible(caller, sessionId);
      if (stopped.status !== 'closed') {
        throw new RemoteError(
          'session_running',
          `Session ${sessionId} is still ${stopped.status}: it runs through another coordinator, or did not stop when asked`,
        );
      }
      return stopped;
    },
    async rename(sessionId, title, call) {
      visible(requireFleetCaller(call), sessionId);
      return announced(await records.rename(sessionId, title, call), call);
    },
    async suggestTitle(sessionId, title, call) {
      const caller = requireFleetCaller(call);
      visible(caller, sessionId);
      // Only a session's own prompts name it.
      if (caller.kind === 'session' && caller.session.sessionId !== sessionId) {
        throw new RemoteError('not_authorized', 'A session suggests a title for itself only');
      }
      return announced(await records.suggestTitle(sessionId, title, call), call);
    },
  });

  /** The record as stored now, announced when it differs from what the directory lists. */
  function announced(record: SessionRecord, call: Context): SessionRecordSummary {
    const session = toSummary(record);
    const listed = state.value.sessions.find((s) => s.sessionId === session.sessionId);
    if (listed?.title !== session.title || listed.updatedAt !== session.updatedAt) upsert(record, call);
    return session;
  }

  context.own(processes.onStatusChanged((record, at) => upsert(record, at)));

  /** Lists every record again, as stored: at start, and when changes in a shared store may have been missed. */
  async function reload(): Promise<void> {
    const existing = await records.list(BACKGROUND_CONTEXT);
    for (const record of existing) workspaces.set(record.sessionId, record.workspaceId);
    state.set({ revision: state.value.revision + 1, sessions: existing.map(toSummary) }, BACKGROUND_CONTEXT);
  }

  // Changes in a store other coordinators share (this one's own come back too, and change nothing twice).
  context.own(
    records.onChanged((change, at) => {
      if (change.kind === 'resync') {
        reload().catch(() => undefined);
      } else if (change.kind === 'changed') {
        const listed = state.value.sessions.find((s) => s.sessionId === change.record.sessionId);
        // Read back after the announcement: never older than what this directory lists already.
        const newer = listed === undefined || change.record.updatedAt > listed.updatedAt;
        if (newer || (listed.updatedAt === change.record.updatedAt && !sameSummary(listed, toSummary(change.record))))
          upsert(change.record, at);
      } else if (state.value.sessions.some((s) => s.sessionId === change.sessionId)) {
        workspaces.set(change.sessionId, change.workspaceId);
        apply(
          state.value.sessions.filter((s) => s.sessionId !== change.sessionId),
          { type: 'deleted', sessionId: change.sessionId },
          at,
        );
      }
    }),
  );

  context.onActivate(reload);

  /** Where a new session goes and whose it is: a session creates beside itself, the user names a directory. */
  async function placementOf(
    caller: FleetCaller,
    options: CreateSessionOptions,
    call: Context,
  ): Promise<{ workspaceId: string; ownerId: string; cwd: string }> {
    if (caller.kind === 'user') {
      if (options.cwd === undefined) throw new RemoteError('invalid_argument', 'Name the project directory (cwd)');
      if (workspaceIdOf(options.cwd) !== options.workspaceId) {
        throw new RemoteError('invalid_argument', 'The workspace id does not belong to that directory');
      }
      return { workspaceId: options.workspaceId, ownerId: caller.principal, cwd: options.cwd };
    }
    if (options.workspaceId !== caller.session.workspaceId) {
      throw new RemoteError('not_authorized', "Cannot create outside the caller's workspace");
    }
    const self = await records.get(caller.session.sessionId, call);
    if (self === undefined) throw new RemoteError('not_authorized', 'The calling session has no record');
    if (options.cwd !== undefined && options.cwd !== self.cwd) {
      throw new RemoteError('not_authorized', 'A session creates sessions in its own project directory');
    }
    return { workspaceId: self.workspaceId, ownerId: self.ownerId, cwd: self.cwd };
  }
}

/** The title of a session nobody named yet; its first prompt replaces it. */
export const PROVISIONAL_TITLE = 'new session';

/** What a session is told of a session id outside its workspace, or of none at all: the same, whichever it is. */
function notInWorkspace(sessionId: string): RemoteError {
  return new RemoteError('not_authorized', `No session ${sessionId} in the caller's workspace`);
}

const USER_VIEW = 'user';
const NO_VIEW = 'none';
const workspaceView = (workspaceId: string) => `workspace:${workspaceId}`;

/**
 * What of the directory a viewer may see, as the projections' key: everything (the local user), one workspace's
 * records (a session), or nothing. The projections read the viewer only through this, so connections with equal
 * keys are sure to see the same thing.
 */
function viewOf(viewer: RemoteViewer): string {
  const claims = viewer.caller?.claims;
  if (claims?.['kind'] === 'user') return USER_VIEW;
  const workspaceId = claims?.['workspaceId'];
  return claims?.['kind'] === 'session' && typeof workspaceId === 'string' ? workspaceView(workspaceId) : NO_VIEW;
}

/** A session sees its own workspace's records; the local user sees all. */
function mayView(viewer: RemoteViewer, workspaceId: string): boolean {
  const view = viewOf(viewer);
  return view === USER_VIEW || view === workspaceView(workspaceId);
}

function sameSummary(a: SessionRecordSummary, b: SessionRecordSummary): boolean {
  return (Object.keys(a) as Array<keyof SessionRecordSummary>).every((key) => a[key] === b[key]);
}

function toSummary(record: SessionRecord): SessionRecordSummary {
  const { sessionId, title, workspaceId, ownerId, cwd, status, updatedAt } = record;
  return { sessionId, title, workspaceId, ownerId, cwd, status, updatedAt };
}
