import type { Context } from '@pi/context';
import type { Result } from 'neverthrow';
import type { EntryProjection } from './context-window';
import type {
  AfterToolHook,
  AgentLane,
  AppendMessageRejection,
  BeforeModelRequestHook,
  BeforeToolHook,
  HarnessEvent,
  JsonValue,
  ModelProvider,
  RunSettings,
  SessionCompaction,
  SessionEntry,
  SessionFileFault,
  SessionNavigation,
  SessionTree,
  AnyAgentTool,
  UserMessage,
} from '@pi/agent-contract';
import type { AppendHandle } from './append-handle';
import type { HookPolicy } from './hook-caller';

export interface Hooks {
  /** Runs in registration order; returns the remover. */
  beforeTool(hook: BeforeToolHook): () => void;
  /** Composes by the owner's rank (`HookPolicy.ownerRank`), then registration; `owner` is named when it fails. */
  afterTool(hook: AfterToolHook, owner?: string): () => void;
  /** Composes like `afterTool`; changes only what one request sends, never the session's history. */
  beforeModelRequest(hook: BeforeModelRequestHook, owner?: string): () => void;
}

export interface HarnessEvents {
  subscribe(listener: (event: HarnessEvent, context: Context) => void): () => void;
}

export interface AgentHarness {
  readonly sessionId: string;
  readonly cwd: string;
  readonly main: AgentLane;
  readonly tree: SessionTree;
  /** List the tree, move the leaf, fork a new session from an entry. */
  readonly navigation: SessionNavigation;
  /** Manual compaction of the current branch (automatic compaction happens inside runs). */
  readonly compaction: SessionCompaction;
  readonly hooks: Hooks;
  readonly events: HarnessEvents;
  /** Appends a plugin's custom entry (durable, invisible to the model). */
  appendCustom(namespace: string, data: JsonValue, context: Context): Promise<SessionEntry>;
  /**
   * Appends a user message a plugin recorded (its `origin` names the plugin and carries `data`): the model reads it
   * from the next request on. Refused while a run is in progress, decided in the same step as the append, so it never
   * lands between a run's messages.
   */
  appendMessage(
    namespace: string,
    message: UserMessage,
    data: JsonValue,
    context: Context,
  ): Promise<Result<SessionEntry, AppendMessageRejection>>;
  /**
   * Lets the queue the file left (follow-ups and steers a stop or crash left waiting) start runs. Until then they
   * wait, so the host calls it once its facets run: providers, settings and event listeners are in place. First it
   * decides the run a crash left parked in a tool round: resumed when its tools may run again (`replay: 'safe'`),
   * else settled as interrupted (see docs/decisions.md, "A parked tool resumes after kill -9").
   */
  startQueue(): void;
  /** The run the file left parked in a tool round, until `startQueue` resumed or settled it (then null). */
  readonly parked: string | null;
  /**
   * What restoring the file found and repaired (for example a torn last line after a crash), and what `startQueue`
   * made of a parked run.
   */
  readonly recovery: readonly string[];
  /**
   * Why the session file cannot be written, or null. Set by the append that failed, cleared by the next one that
   * succeeds; every change is also a `session_file_fault` event.
   */
  readonly sessionFileFault: SessionFileFault | null;
  /** True when opening created the session file (or found it without a header); false when it restored one. */
  readonly created: boolean;
  /** Stops a running run in memory (nothing durable is written: restart shows it unsettled) and closes the file. */
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** The session file; created with a header when missing, restored when present. */
  readonly file: string;
  readonly cwd: string;
  /** The current registries (read per run / per tool call, so a rebuild applies to the next run). */
  readonly tools: () => ReadonlyMap<string, AnyAgentTool>;
  readonly providers: () => ReadonlyMap<string, ModelProvider>;
  readonly settings: () => RunSettings;
  readonly maxTurns?: number;
  /** How run-path hooks are ordered, bounded and reported (default: registration order, 30 s, unreported). */
  readonly hooks?: HookPolicy;
  /** How long a model may send nothing before the run reports `model_waiting` (default 5 s; tests shorten it). */
  readonly modelWaitNoticeMs?: number;
  /**
   * What the model reads of a plugin's custom entry, in the entry's place on the branch (its plugin's entry
   * projector); undefined or nothing: the entry stays invisible to the model. Read per request.
   */
  readonly projectEntry?: EntryProjection;
  /**
   * The client a send comes from (its connection's id in the context), recorded in memory as the run's originator
   * and given to its tools in `TOOL_CALL_STEP`. The harness knows no transport: the host reads it.
   */
  readonly originatorOf?: (context: Context) => string | undefined;
  /** Wraps the file handle appends use: a test's seam to fail writes as a full or failing disk does. */
  readonly appendHandle?: (handle: AppendHandle) => AppendHandle;
}

export type OpenError = { code: 'unreadable' | 'corrupt' | 'locked'; message: string; file: string };
