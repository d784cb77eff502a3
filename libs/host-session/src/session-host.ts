import { err, ok, type Result } from 'neverthrow';
import { openHarness, type AnyAgentTool, type HarnessOptions, type ModelProvider } from '@pi/agent';
import { coalescedRebuild, ProvidingSide, runFacets, type ExposeOptions, type LoadedFacet } from '@pi/host-kit';
import type { KernelStopReport } from '@pi/kernel';
import {
  Diagnostics,
  PLUGIN_API_VERSION,
  RunSettingsService,
  Views,
  type SessionIdentity,
  type SessionPaths,
  type SessionUpstream,
} from '@pi/plugin-api';
import { createRegistry, type ContributionRegistry, type OwnerMessage } from '@pi/registry';
import type { RpcHost } from '@pi/transport-trpc';
import { absentUpstream } from './absent-upstream';
import { logSessionFileFaults } from './session-file-log';
import { SessionDiagnostics, rebuildDiffLine, toolsCalledIn } from './session-diagnostics';
import { sessionFacetContext, type SessionParts } from './facet-context';
import { sessionActivity, type SessionActivity } from './session-activity';
import { SessionLifecycleHooks, type LifecycleHookDeadlines } from './session-lifecycle-hooks';
import { durableViewsFile, durableViewsWriter, readDurableViews } from './views/durable-views';
import { ViewRegistry } from './views/view-registry';

export interface SessionHostOptions {
  /** The manifest's session facets, loaded in manifest order (the host kit's `loadFacets(manifest, 'session', …)`). */
  readonly facets: readonly LoadedFacet<'session'>[];
  readonly identity: SessionIdentity;
  /** The session's JSONL file. */
  readonly sessionFile: string;
  /** The facets' paths; the session file is `sessionFile`. */
  readonly paths: Omit<SessionPaths, 'sessionFile'>;
  /** How the RPC surface is served to presentations: authentication, limits, keep-alive. */
  readonly transport: ExposeOptions;
  /** The session's client of its coordinator; absent for a standalone session. */
  readonly upstream?: SessionUpstream;
  /** Hook deadlines (tests shorten them): one run-path hook, each start hook, all shutdown hooks together. */
  readonly hookDeadlines?: LifecycleHookDeadlines & { readonly runHookMs?: number };
  /** Where the host's operational lines go (the app writes them to stderr, the session's log); default nowhere. */
  readonly log?: (line: string) => void;
  /** The harness's seams a test sets: a disk that fails on request, a shorter model-silence notice. */
  readonly harness?: Pick<HarnessOptions, 'appendHandle' | 'modelWaitNoticeMs'>;
}

export interface SessionHostError {
  readonly code: 'session' | 'plugin_failed' | 'start_refused';
  readonly message: string;
}

export interface SessionHostDiagnostics {
  /** Contribution errors of the last rebuild of each registry, by owner. */
  readonly tools: readonly OwnerMessage[];
  readonly providers: readonly OwnerMessage[];
  /** What restoring the session file repaired. */
  readonly recovery: readonly string[];
  /** Plugin callbacks (rebuild listeners, client connect/disconnect, hooks) that threw or were skipped, latest last. */
  readonly callbacks: readonly OwnerMessage[];
}

export interface SessionHost {
  readonly identity: SessionIdentity;
  /** The RPC surface presentations connect to (serve it with listenWebSocket or a loopback factory). */
  readonly rpc: RpcHost;
  /** Whether the session is at work (a run, or prompts queued), for its coordinator's presence report. */
  readonly activity: SessionActivity;
  diagnostics(): SessionHostDiagnostics;
  /**
   * Host-owned: closes connections, tells the shutdown hooks (bounded), disposes every facet in reverse manifest
   * order, closes the session.
   */
  stop(): Promise<KernelStopReport>;
}

type Registry<T> = ContributionRegistry<T, ReadonlyMap<string, T>>;

/**
 * The session app host: one process, one session. It opens the durable session, runs the session facets
 * through the kernel with a context per facet, rebuilds the registries once everything registered and
 * activated, and only then generates its RPC surface from the services the facets provided.
 */
export async function startSessionHost(options: SessionHostOptions): Promise<Result<SessionHost, SessionHostError>> {
  const ranks = new Map(options.facets.map((facet, index) => [facet.id, index]));
  const ownerRank = (owner: string) => ranks.get(owner) ?? Number.NaN;
  const providing = new ProvidingSide();
  const tools = createRegistry<AnyAgentTool, ReadonlyMap<string, AnyAgentTool>>({
    name: 'tools',
    ownerRank,
    build: checkedTools,
  });
  const providers = createRegistry<ModelProvider, ReadonlyMap<string, ModelProvider>>({
    name: 'providers',
    ownerRank,
    build: (entries) => new Map(entries),
  });

  const reported = new SessionDiagnostics();
  providing.services.provide(Diagnostics, reported.service);
  providing.failures.onRecord((failure) => reported.record(failure.owner, 'callback', 'error', failure.message));
  const lifecycle = new SessionLifecycleHooks(ownerRank, providing.failures, options.hookDeadlines);
  const harness = await openHarness({
    file: options.sessionFile,
    cwd: options.paths.cwd,
    tools: () => tools.current(),
    providers: () => providers.current(),
    settings: () =>
      providing.services.has(RunSettingsService)
        ? providing.services.use(RunSettingsService).current()
        : { model: null, thinkingLevel: 'off' },
    hooks: {
      ownerRank,
      onFailure: (failure) => providing.failures.record(failure.owner, failure.message),
      ...(options.hookDeadlines?.runHookMs === undefined ? {} : { timeoutMs: options.hookDeadlines.runHookMs }),
    },
    ...options.harness,
  });
  if (harness.isErr()) return err({ code: 'session', message: harness.error.message });
  if (options.log !== undefined) logSessionFileFaults(harness.value, options.sessionFile, options.log);

  const viewsFile = durableViewsFile(options.sessionFile);
  const stored = await readDurableViews(viewsFile);
  if (stored.problem !== null) options.log?.(stored.problem);
  const viewWriter = durableViewsWriter(viewsFile, (message) => providing.failures.record('host', message));
  const views = new ViewRegistry({
    restored: stored.views,
    persist: (durable) => viewWriter.write(durable),
    onListenerFailure: (owner, message) => providing.failures.record(owner, message),
  });
  providing.services.provide(Views, views.service);

  const diagnostics = { tools: [] as readonly OwnerMessage[], providers: [] as readonly OwnerMessage[] };
  // Diffs are reported once the session is up: the first rebuild adds everything, which says nothing.
  let started = false;
  const report = (registry: string, rebuilt: RebuildOutcome, previous: readonly OwnerMessage[]) => {
    const known = new Set(previous.map((error) => `${error.owner}\u0000${error.message}`));
    for (const error of rebuilt.errors) {
      if (!known.has(`${error.owner}\u0000${error.message}`))
        reported.record(error.owner, 'rebuild', 'error', error.message);
    }
    const diff = started ? rebuildDiffLine(registry, rebuilt) : null;
    if (diff !== null) reported.record('host', 'rebuild', 'info', diff);
    return rebuilt.errors;
  };
  const toolRebuild = coalescedRebuild(
    () => (diagnostics.tools = report('tools', rebuildOutcome(tools), diagnostics.tools)),
  );
  const providerRebuild = coalescedRebuild(
    () => (diagnostics.providers = report('providers', rebuildOutcome(providers), diagnostics.providers)),
  );
  const parts: SessionParts = {
    providing,
    harness: harness.value,
    lifecycle,
    identity: options.identity,
    paths: { ...options.paths, sessionFile: options.sessionFile },
    upstream: options.upstream ?? absentUpstream(),
    tools: { registry: tools, rebuild: toolRebuild.request },
    providers: { registry: providers, rebuild: providerRebuild.request },
    views,
    diagnostics: reported,
  };
  const running = await runFacets(
    options.facets,
    (scope, facet) => sessionFacetContext(scope, facet, parts),
    (failure) => providing.failures.record(failure.pluginId, failure.message),
  );
  if (running.isErr()) {
    await harness.value.close();
    return err(running.error);
  }
  toolRebuild.release();
  providerRebuild.release();
  for (const repair of harness.value.recovery) reported.record('host', 'recovery', 'warning', repair);
  const missing = toolsCalledIn(harness.value.tree.messages()).filter((name) => !tools.current().has(name));
  if (missing.length > 0) {
    const message = `missing_identities: the history calls tools no loaded plugin provides: ${missing.join(', ')} (a plugin that was in the manifest when they ran is missing now; calls to them fail)`;
    reported.record('host', 'missing_identities', 'warning', message);
  }
  started = true;
  const hello = { pluginApi: PLUGIN_API_VERSION, plugins: options.facets.map((facet) => ({ id: facet.id })) };
  const rpc = providing.expose({ hello, ...options.transport });
  rpc.onClientConnect((clientId) => views.clientConnected(clientId));
  rpc.onClientDisconnect((clientId) => views.clientDisconnected(clientId));
  // Every facet is active and the surface exists, but no client can connect before this returns.
  const { sessionId } = options.identity;
  await lifecycle.started({ sessionId, created: harness.value.created, recovery: harness.value.recovery });
  const unclaimed = views.closeUnclaimed();
  if (unclaimed.length > 0)
    options.log?.(`closed ${unclaimed.length} restored view(s) no plugin took back: ${unclaimed.join(', ')}`);
  // Follow-ups a stop or crash left queued run now, attended or not: providers, settings and listeners are up.
  const activity = sessionActivity(harness.value);
  harness.value.startQueue();

  let stopping: Promise<KernelStopReport> | undefined;
  return ok({
    identity: options.identity,
    rpc,
    activity,
    diagnostics: () => ({ ...diagnostics, recovery: harness.value.recovery, callbacks: providing.failures.list() }),
    stop: () =>
      (stopping ??= (async () => {
        rpc.close();
        await lifecycle.stopping({ sessionId });
        const report = await running.value.stop();
        await viewWriter.flushed();
        await harness.value.close();
        activity.dispose();
        return report;
      })()),
  });
}

interface RebuildOutcome {
  readonly errors: readonly OwnerMessage[];
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly changed: readonly string[];
}

/** A rebuild's contribution errors and diff. Never throws: it runs in a microtask, where a throw would end the process. */
function rebuildOutcome<T>(registry: Registry<T>): RebuildOutcome {
  const none = { added: [], removed: [], changed: [] };
  try {
    const rebuilt = registry.rebuild();
    return rebuilt.isOk() ? rebuilt.value : { errors: [{ owner: 'host', message: rebuilt.error.message }], ...none };
  } catch (error) {
    const message = `registry "${registry.name}": ${error instanceof Error ? error.message : String(error)}`;
    return { errors: [{ owner: 'host', message }], ...none };
  }
}

/** The tools registry's finalization: an entry must be a tool whose name is its id. */
function checkedTools(entries: ReadonlyMap<string, AnyAgentTool>): ReadonlyMap<string, AnyAgentTool> {
  const tools = new Map<string, AnyAgentTool>();
  for (const [id, tool] of entries) {
    if (typeof tool?.execute === 'function' && tool.name === id) tools.set(id, tool);
  }
  return tools;
}
