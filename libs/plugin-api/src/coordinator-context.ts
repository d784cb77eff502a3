import type { Context } from '@pi/context';
import type { ProvidingPluginContext } from './providing-context';

/** Where a session process is in its life, as the coordinator sees it. */
export type SessionStatus = 'starting' | 'active' | 'idle' | 'closed';

export const SESSION_STATUSES: readonly SessionStatus[] = Object.freeze(['starting', 'active', 'idle', 'closed']);

/** One durable session record: what the coordinator keeps about a session (never its content). */
export interface SessionRecord {
  readonly sessionId: string;
  readonly title: string;
  /** The title is a placeholder nobody chose: the session's first prompt replaces it (see `suggestTitle`). */
  readonly provisionalTitle: boolean;
  /** Sessions of one project share a workspace; authorization is per workspace. */
  readonly workspaceId: string;
  /** The principal that created the session. */
  readonly ownerId: string;
  /** The project directory the session works in. */
  readonly cwd: string;
  readonly status: SessionStatus;
  /** ISO 8601. */
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** What a caller chooses about a new record; the id, status and times are the repository's. */
export interface NewSessionRecord {
  readonly title: string;
  /** A placeholder the first prompt replaces (default false: the title was chosen). */
  readonly provisionalTitle?: boolean;
  readonly workspaceId: string;
  readonly ownerId: string;
  readonly cwd: string;
}

/**
 * The session records as a coordinator facet sees them: read, create, retitle and remove records, nothing that
 * reaches the store itself (no handle, no transaction, no closing). Status is the process manager's to write.
 */
export interface FleetRecords {
  list(context: Context): Promise<readonly SessionRecord[]>;
  get(sessionId: string, context: Context): Promise<SessionRecord | undefined>;
  /** With `sessionId`, registers a session file that already exists under that id (a fork); else a new id. */
  create(record: NewSessionRecord & { readonly sessionId?: string }, context: Context): Promise<SessionRecord>;
  /** A chosen title: it replaces any title, and no suggestion replaces it. */
  rename(sessionId: string, title: string, context: Context): Promise<SessionRecord>;
  /** Replaces a provisional title (once: the result is no longer provisional); a chosen title stays. Resolves with
   *  the record either way. */
  suggestTitle(sessionId: string, title: string, context: Context): Promise<SessionRecord>;
  /** Removes a record whose process is not running; fails with `session_running` otherwise. */
  remove(sessionId: string, context: Context): Promise<void>;
  /**
   * Called for record changes in a store other coordinators share (PostgreSQL), this coordinator's own included, a
   * bounded time after each; `resync` when changes may have been missed and the records must be listed again. A
   * store of one coordinator (SQLite) never calls it. Owned by the scope.
   */
  onChanged(listener: (change: FleetRecordChange, context: Context) => void): () => void;
}

/** A record as stored after a change, a record removed, or a call to list the records again. */
export type FleetRecordChange =
  | { readonly kind: 'changed'; readonly record: SessionRecord }
  | { readonly kind: 'removed'; readonly sessionId: string; readonly workspaceId: string }
  | { readonly kind: 'resync' };

/**
 * Session processes as a coordinator facet sees them: start and stop by session id, the same graceful path the
 * coordinator itself uses. No pid, no signal, no process that is not a session's.
 */
export interface FleetProcesses {
  /** Starts the record's session process (or finds it running) and resolves once it is connected upstream. */
  start(sessionId: string, context: Context): Promise<SessionRecord>;
  /** Stops it gracefully, forcibly after the coordinator's timeout; resolves once it exited. */
  stop(sessionId: string, context: Context): Promise<void>;
  /** Called after every status change of any record, under the context of what changed it. Owned by the scope. */
  onStatusChanged(listener: (record: SessionRecord, context: Context) => void): () => void;
}

/** Where a session file says it belongs: read from its header, never from its content. */
export interface SessionFileOrigin {
  /** The project directory the session file names, and the workspace that directory is. */
  readonly cwd: string;
  readonly workspaceId: string;
  /** The session it was forked from, if it is a fork. */
  readonly forkedFrom: string | null;
}

/** The session files on this machine, as a coordinator facet may see them: whose each one is, nothing more. */
export interface FleetSessionFiles {
  /** The origin of the session file of that id; undefined when there is none, or it is unreadable or not one. */
  origin(sessionId: string, context: Context): Promise<SessionFileOrigin | undefined>;
}

/** Scoped fleet authority (spec: FleetPluginScope). */
export interface FleetPluginScope {
  readonly records: FleetRecords;
  readonly processes: FleetProcesses;
  readonly files: FleetSessionFiles;
}

/**
 * What a coordinator facet receives: the providing host's capabilities plus scoped fleet authority. The raw
 * SessionRepo, its storage and unrestricted process control stay with the coordinator application.
 */
export interface CodingAgentCoordinatorPluginContext extends ProvidingPluginContext {
  readonly fleet: FleetPluginScope;
}

/** A coordinator facet: the setup function of one plugin for this host. */
export type CoordinatorFacet = (context: CodingAgentCoordinatorPluginContext) => void | Promise<void>;
