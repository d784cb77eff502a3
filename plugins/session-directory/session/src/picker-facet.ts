import {
  BACKGROUND_CONTEXT,
  RemoteError,
  type CodingAgentSessionPluginContext,
  type Context,
  type SessionIdentity,
} from '@pi/plugin-api';
import {
  SESSION_PICKER_ERRORS,
  SessionDirectory,
  SessionPicker,
  type SessionDirectoryEvent,
  type SessionDirectoryService,
  type SessionDirectoryState,
  type SessionPickerEntry,
  type SessionPickerEvent,
  type SessionPickerState,
  type SessionRecordSummary,
  type UpstreamHealth,
} from '@pi/session-directory';
import { firstPromptTitle } from './prompt-title';

/**
 * The session facet: one upstream subscription to the coordinator's directory, projected (this workspace only)
 * and redacted (no owner, directory or workspace) into the SessionPicker its presentations use. The two
 * connections fail separately: while the coordinator is away the picker keeps serving the last list, marked
 * stale, and refuses changes with `unavailable`.
 */
export function sessionDirectorySessionFacet(context: CodingAgentSessionPluginContext): void {
  const self = context.agent.identity;
  const upstream = context.upstream;
  let directory: SessionDirectoryService | undefined;
  let listed: SessionDirectoryState = { revision: 0, sessions: [] };
  // Every session of this workspace the picker has shown; only grows (ids are never reused).
  const seen = new Set<string>();

  const health = (): UpstreamHealth =>
    !upstream.available ? 'absent' : upstream.connection.value.status === 'connected' ? 'connected' : 'disconnected';
  const state = context.remoteState<SessionPickerState>(project(listed, self, health()));
  const events = context.remoteEvents<SessionPickerEvent>();
  const reproject = (at: Context) => state.set(project(listed, self, health()), at);

  let attaching = false;
  let disposed = false;
  context.onDispose(() => void (disposed = true));

  // The session's first prompt names it, unless someone chose its title (the coordinator decides that).
  const title = firstPromptTitle((suggested) =>
    directory === undefined || upstream.connection.value.status !== 'connected' || disposed
      ? undefined
      : directory.suggestTitle(self.sessionId, suggested, BACKGROUND_CONTEXT),
  );

  /** Holds the one upstream subscription. A `use` that fails (the coordinator away at start) is tried again at the
   *  next connect; once attached, the client's replica re-hydrates across reconnects by itself. */
  const attach = () => {
    if (directory !== undefined || attaching) return;
    attaching = true;
    upstream.use(SessionDirectory).then(
      (found) => {
        attaching = false;
        if (disposed) return;
        directory = found;
        title.flush();
        // Downstream state derives from upstream *state* deliveries, each under the context of the upstream set.
        context.own(
          found.state.subscribe((next, at) => {
            listed = next;
            for (const session of project(next, self, health()).sessions) seen.add(session.sessionId);
            reproject(at);
          }),
        );
        // Events are forwarded on their own stream, never by reading the state inside an event callback: the
        // two streams are sequenced separately and can race.
        context.own(
          found.events.subscribe((event, at) => {
            const projected = projectEvent(event, self, seen);
            if (projected !== undefined) events.emit(projected, at);
          }),
        );
      },
      () => void (attaching = false),
    );
  };

  if (upstream.available) {
    context.own(context.on('*', (event) => title.observe(event)));
    context.own(
      upstream.connection.subscribe((connection, at) => {
        reproject(at);
        if (connection.status !== 'connected') return;
        attach();
        title.flush();
      }),
    );
    // Not awaited: a session starts (and serves its presentations) whether or not its coordinator answers yet.
    attach();
  }

  function reachable(): SessionDirectoryService {
    if (!upstream.available) {
      throw new RemoteError(SESSION_PICKER_ERRORS.unavailable, 'This session runs without a coordinator');
    }
    if (directory === undefined || upstream.connection.value.status !== 'connected') {
      throw new RemoteError(
        SESSION_PICKER_ERRORS.unavailable,
        'The coordinator is not reachable; the session list may be stale',
      );
    }
    return directory;
  }

  function listedEntry(sessionId: string): SessionPickerEntry {
    const entry = state.value.sessions.find((session) => session.sessionId === sessionId);
    if (entry === undefined) throw new RemoteError(SESSION_PICKER_ERRORS.unknownSession, `No session ${sessionId}`);
    return entry;
  }

  context.provide(SessionPicker, {
    state,
    events,
    async create(options, call) {
      // The session's own reconstructed context goes upstream: aborting the presentation's call cancels this one.
      const adopted = options.sessionId === undefined ? {} : { sessionId: options.sessionId };
      const titled = options.title === undefined ? {} : { title: options.title };
      const created = await reachable().create({ ...titled, workspaceId: self.workspaceId, ...adopted }, call);
      return toEntry(created, self);
    },
    async remove(sessionId, call) {
      const target = listedEntry(sessionId);
      if (target.isCurrent) {
        throw new RemoteError(SESSION_PICKER_ERRORS.currentSession, 'The current session cannot remove itself');
      }
      await reachable().remove(sessionId, call);
    },
    async resume(sessionId, call) {
      listedEntry(sessionId);
      return toEntry(await reachable().resume(sessionId, call), self);
    },
    async rename(sessionId, title, call) {
      listedEntry(sessionId);
      return toEntry(await reachable().rename(sessionId, title, call), self);
    },
  });

  context.onActivate(() => reproject(BACKGROUND_CONTEXT));
}

function project(upstream: SessionDirectoryState, self: SessionIdentity, health: UpstreamHealth): SessionPickerState {
  return {
    revision: upstream.revision,
    sessions: upstream.sessions
      .filter((session) => session.workspaceId === self.workspaceId) // visibility: defense in depth
      .map((session) => toEntry(session, self)),
    upstream: health,
  };
}

function projectEvent(
  event: SessionDirectoryEvent,
  self: SessionIdentity,
  seen: Set<string>,
): SessionPickerEvent | undefined {
  // A deletion carries only an id: forward it only for a session this workspace was shown (defense in depth; the
  // coordinator already sends each session only its workspace's events).
  if (event.type === 'deleted') return seen.has(event.sessionId) ? event : undefined;
  if (event.session.workspaceId !== self.workspaceId) return undefined;
  seen.add(event.session.sessionId);
  return { type: event.type, session: toEntry(event.session, self) };
}

function toEntry(session: SessionRecordSummary, self: SessionIdentity): SessionPickerEntry {
  const { sessionId, title, status, updatedAt } = session; // ownerId, cwd and workspaceId stop here
  return { sessionId, title, status, updatedAt, isCurrent: sessionId === self.sessionId };
}
