import type {
  AfterToolHook,
  BeforeModelRequestHook,
  SessionShutdownHook,
  SessionStartHook,
  AgentLane,
  AnyAgentTool,
  AppendMessageRejection,
  ForkRejection,
  ForkedSession,
  BeforeToolHook,
  HarnessEvent,
  JsonValue,
  ModelProvider,
  RunSettings,
  SessionCompaction,
  SessionEntry,
  SessionNavigation,
  SessionFileFault,
  SessionTree,
  UserMessage,
} from '@pi/agent-contract';
import type { Context } from '@pi/context';
import type { Draft } from '@pi/registry';
import type { Result } from 'neverthrow';
import type { ConnectionState, RemoteService, RemoteState } from '@pi/remote';
import type { BoundStorage } from './bound-storage';
import type { OpenView } from './define-view';
import type { PluginDiagnostics } from './diagnostics-contract';
import type { PluginSettings } from './plugin-settings';
import type { ProvidingPluginContext } from './providing-context';

export interface SessionIdentity {
  readonly sessionId: string;
  readonly workspaceId: string;
}

/**
 * The main lane as a facet sees it: prompt, steer, follow-up, withdraw and durable abort, nothing that closes or
 * rewrites the session.
 */
export type AgentLanePluginView = Pick<
  AgentLane,
  'prompt' | 'requestAbort' | 'settled' | 'steer' | 'followUp' | 'withdraw'
> & {
  readonly running: string | null;
  readonly queue: AgentLane['queue'];
};

/**
 * Navigation as a facet sees it: list the tree and move the leaf as the harness does; fork only beside this
 * session (a facet names no file of its own choosing).
 */
export type AgentNavigationPluginView = Pick<SessionNavigation, 'leafId' | 'list' | 'moveLeaf'> & {
  fork(entryId: string | null, context: Context): Promise<Result<ForkedSession, ForkRejection>>;
};

/** Every harness hook a session facet may register, by name, with its handler's type. */
export interface SessionHooks {
  /** May block a tool call or change its arguments; fails closed: a throw blocks the call. */
  beforeTool: BeforeToolHook;
  /** May rewrite a finished call's result before it is recorded and sent to the model. */
  afterTool: AfterToolHook;
  /** May replace the messages one model request sends; the session's history is not changed. */
  beforeModelRequest: BeforeModelRequestHook;
  /** Told once, after every facet activated and before any client connects (awaited, 5 s each, in order). */
  sessionStart: SessionStartHook;
  /** Told once when the session stops, before any facet is disposed (awaited together, 2 s in all). */
  sessionShutdown: SessionShutdownHook;
}

export type SessionHookName = keyof SessionHooks;

/** The harness event of one type (`'*'`: every event). */
export type HarnessEventOf<T extends HarnessEvent['type'] | '*'> = T extends '*'
  ? HarnessEvent
  : Extract<HarnessEvent, { readonly type: T }>;

/** Scoped local session authority (spec: AgentPluginScope). */
export interface AgentPluginScope {
  readonly identity: SessionIdentity;
  readonly main: AgentLanePluginView;
  readonly sessionTree: SessionTree;
  readonly navigation: AgentNavigationPluginView;
  /** Manual compaction of the current branch with the selected model (refused while a run is in progress). */
  readonly compaction: SessionCompaction;
  /** A durable entry in the plugin's own namespace (its id), invisible to the model. */
  appendCustom(data: JsonValue, context: Context): Promise<SessionEntry>;
  /**
   * A durable user message the model reads from the next request on, recorded with the plugin's id and `data` as
   * its `origin` (so the plugin can show it its own way). Refused (`busy`) while a run is in progress.
   */
  appendMessage(
    message: UserMessage,
    data: JsonValue,
    context: Context,
  ): Promise<Result<SessionEntry, AppendMessageRejection>>;
  /** Why the session file cannot be written now, or null; each change is a `session_file_fault` event. */
  readonly sessionFileFault: SessionFileFault | null;
}

/**
 * A contribution registry as a facet sees it: the owner is the plugin, the remover is owned by its scope, and
 * `rebuild` asks the host to replay (coalesced) after I/O changed what a contribution reads.
 */
export interface ScopedContributions<T> {
  add(contribution: (draft: Draft<T>) => void): () => void;
  rebuild(): void;
  /** The registry's current finalized state (every plugin's contributions, replayed in manifest order). */
  current(): ReadonlyMap<string, T>;
  /** Called after every successful rebuild; owned by the plugin's scope. A throw is recorded, never propagated. */
  onRebuild(listener: (state: ReadonlyMap<string, T>) => void): () => void;
}

export interface SessionUpstream {
  /** False when no coordinator is configured; `use` then rejects with `unavailable`. */
  readonly available: boolean;
  readonly connection: RemoteState<ConnectionState>;
  use<T>(service: RemoteService<T>): Promise<T>;
}

/**
 * Where a facet may keep files: the user's pi data and config directories, and the session's project; and the
 * session's own file, to show people (facets write to it only through `agent.appendCustom`).
 */
export interface SessionPaths {
  readonly dataDir: string;
  readonly configDir: string;
  readonly cwd: string;
  readonly sessionFile: string;
}

/**
 * What a session facet receives: the providing host's capabilities plus scoped local session authority.
 * Host-reserved capabilities (closing the harness or session, raw mutation, whole-registry setters, unscoped
 * hooks, transport exposure) are deliberately absent.
 */
export interface CodingAgentSessionPluginContext extends ProvidingPluginContext {
  readonly agent: AgentPluginScope;
  readonly paths: SessionPaths;
  readonly upstream: SessionUpstream;
  readonly providers: ScopedContributions<ModelProvider>;
  readonly tools: ScopedContributions<AnyAgentTool>;
  /** Reports something the user should know (a file the plugin ignored, a setting it could not use). */
  readonly diagnostics: PluginDiagnostics;
  /**
   * Intercepts: registers a harness hook, owned by the plugin (removed when it is disposed; the returned remover
   * removes it earlier). Hooks of one kind run in manifest order. Apart from `beforeTool`, a hook that throws,
   * rejects or misses its deadline is skipped (the value goes on unchanged) and recorded against the plugin.
   * `localId` names the hook within the plugin: registering the same name and id again replaces the earlier one.
   */
  hook<K extends SessionHookName>(name: K, handler: SessionHooks[K], localId?: string): () => void;
  /**
   * Observes: listens to harness events of one type (`'*'` for all), passively; owned like a hook. A listener that
   * throws is recorded against the plugin and the others still hear the event.
   */
  on<T extends HarnessEvent['type'] | '*'>(
    type: T,
    listener: (event: HarnessEventOf<T>, context: Context) => void,
  ): () => void;
  /**
   * Opens a view: state synced to its audience, messages back from clients, closed with a result (issue 22). A
   * component must render from its state alone: late joiners and reattached clients get only the current state.
   */
  readonly view: OpenView;
  /** Settings the plugin declares with a schema, layered defaults → user → project → session (issue 22). */
  readonly settings: PluginSettings;
  /** The plugin's values and lists at typed addresses, kept with the session (issue 22; see `value` and `list`). */
  readonly store: BoundStorage;
  /**
   * Sets what the model reads of this plugin's custom entries (`agent.appendCustom`), in each entry's place on the
   * branch, from the next request on: messages, or nothing, which leaves the entry durable, placed in the tree and
   * synced, but invisible to the model. One projector per plugin (a second replaces the first); owned by its scope.
   * A projector that throws is recorded against the plugin and its entry stays invisible.
   */
  projectEntries(projector: EntryProjector): () => void;
}

/** What the model reads of one of the plugin's custom entries: user messages, or nothing. */
export type EntryProjector = (data: JsonValue, entry: SessionEntry) => readonly UserMessage[] | undefined;

/** A session facet: the setup function of one plugin for this host. */
export type SessionFacet = (context: CodingAgentSessionPluginContext) => void | Promise<void>;

/** Settings the harness reads when it accepts a prompt; provided (locally) by the plugin that owns model selection. */
export interface RunSettingsSource {
  current(): RunSettings;
}
