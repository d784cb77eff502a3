import { err, ok, type Result } from 'neverthrow';
import { openHarness, type HarnessOptions } from '@pi/agent';
import { ProvidingSide, type ExposeOptions, type LoadedFacet } from '@pi/host-kit';
import type { KernelStopReport } from '@pi/kernel';
import {
  Diagnostics,
  SessionPlugins,
  PLUGIN_API_VERSION,
  Presence,
  RunSettingsService,
  Storage,
  Views,
  type SessionIdentity,
  type SessionPaths,
  type SessionUpstream,
} from '@pi/plugin-api';
import type { OwnerMessage } from '@pi/registry';
import { CLIENT_ID, type ServiceRegistry } from '@pi/remote';
import type { RpcHost } from '@pi/transport-trpc';
import { absentUpstream } from './absent-upstream';
import { logSessionFileFaults } from './session-file-log';
import { SessionDiagnostics, toolsCalledIn } from './session-diagnostics';
import { PluginGeneration, type SessionHostParts } from './plugin-generation';
import { PluginSets, type PluginSetSource } from './plugin-reload';
import { sessionActivity, type SessionActivity } from './session-activity';
import type { LifecycleHookDeadlines } from './session-lifecycle-hooks';
import { durableViewsFile, durableViewsWriter, readDurableViews } from './views/durable-views';
import { ViewRegistry } from './views/view-registry';
import { AttachedClients } from './presence/attached-clients';
import { openSessionRecords } from './storage/open-storage';
import { logUpstreamRefusal } from './upstream-refusal';

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
  /** What the plugin set left out at start (a scope manifest that failed, a refused module), one line each. */
  readonly loadProblems?: readonly string[];
  /** Where a reload reads the plugin set anew; absent: a reload starts the same facets again (settings, context files and resources are still read anew). */
  readonly reloadSource?: PluginSetSource;
  /** How long a reload lets calls into the replaced set finish (tests shorten it); default RELOAD_DRAIN_MS. */
  readonly reloadDrainMs?: number;
}

export interface SessionHostError {
  readonly code: 'session' | 'plugin_failed' | 'start_refused';
  /** What a failing plugin threw (for `PI_DEBUG`'s stack and causes); never sent anywhere. */
  readonly cause?: unknown;
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
  /** Starts the plugin set anew (the `plugins` service's `reload`); the live set stays when the new one fails. */
  reload(): ReturnType<PluginSets['reload']>;
  /**
   * Host-owned: closes connections, tells the shutdown hooks (bounded), disposes every facet in reverse manifest
   * order, closes the session.
   */
  stop(): Promise<KernelStopReport>;
}

/**
 * The session app host: one process, one session. It opens the durable session, runs the session facets
 * through the kernel with a context per facet, rebuilds the registries once everything registered and
 * activated, and only then generates its RPC surface from the services the facets provided.
 */
export async function startSessionHost(options: SessionHostOptions): Promise<Result<SessionHost, SessionHostError>> {
  // The side the RPC surface is generated from: it serves whichever plugin set is live (see PluginSets).
  const front = new ProvidingSide();
  const reported = new SessionDiagnostics();
  front.failures.onRecord((failure) => reported.record(failure.owner, 'callback', 'error', failure.message));
  const records = await openSessionRecords(
    options.sessionFile,
    (owner, message) => front.failures.record(owner, message),
    options.log,
  );
  const presence = new AttachedClients();
  // Filled in once the first plugin set started: the harness reads the live set's tools, providers and settings.
  const current: { sets?: PluginSets; first?: PluginGeneration } = {};
  const live = () => current.sets?.live ?? current.first;
  const harness = await openHarness({
    file: options.sessionFile,
    cwd: options.paths.cwd,
    tools: () => live()?.tools.current() ?? new Map(),
    providers: () => live()?.providers.current() ?? new Map(),
    settings: () => {
      const services = live()?.providing.services;
      return services?.has(RunSettingsService) === true
        ? services.use(RunSettingsService).current()
        : { model: null, thinkingLevel: 'off' };
    },
    hooks: {
      ownerRank: (owner) => {
        const rank = live()?.facets.findIndex((facet) => facet.id === owner) ?? -1;
        return rank < 0 ? Number.NaN : rank;
      },
      onFailure: (failure) => front.failures.record(failure.owner, failure.message),
      ...(options.hookDeadlines?.runHookMs === undefined ? {} : { timeoutMs: options.hookDeadlines.runHookMs }),
    },
    projectEntry: records.projectors.project,
    // A run's originator is the connection whose call sent its prompt: `to: 'originator'` views of its tools go there.
    originatorOf: (context) => context.value(CLIENT_ID),
    ...options.harness,
  });
  if (harness.isErr()) return err({ code: 'session', message: harness.error.message });
  if (options.log !== undefined) logSessionFileFaults(harness.value, options.sessionFile, options.log);
  const upstreamRefusal =
    options.upstream === undefined || options.log === undefined
      ? () => undefined
      : logUpstreamRefusal(options.upstream.connection, options.log);

  const viewsFile = durableViewsFile(options.sessionFile);
  const stored = await readDurableViews(viewsFile);
  if (stored.problem !== null) options.log?.(stored.problem);
  const viewWriter = durableViewsWriter(viewsFile, (message) => front.failures.record('host', message));
  const views = new ViewRegistry({
    restored: stored.views,
    persist: (durable) => viewWriter.write(durable),
    onListenerFailure: (owner, message) => front.failures.record(owner, message),
  });

  const provideHostServices = (registry: ServiceRegistry) => {
    registry.provide(Diagnostics, reported.service);
    registry.provide(Views, views.service);
    registry.provide(Storage, records.storage.service);
    registry.provide(Presence, presence.service);
    if (current.sets !== undefined) registry.provide(SessionPlugins, current.sets.service);
  };
  const parts: SessionHostParts = {
    harness: harness.value,
    identity: options.identity,
    paths: { ...options.paths, sessionFile: options.sessionFile },
    upstream: options.upstream ?? absentUpstream(),
    views,
    diagnostics: reported,
    storage: records.storage,
    projectors: records.projectors,
    broker: front.broker,
    failures: front.failures,
    ...(options.hookDeadlines === undefined ? {} : { hookDeadlines: options.hookDeadlines }),
    provideHostServices,
    liveGeneration: () => live()?.number ?? 1,
  };
  const started = await PluginGeneration.start(1, options.facets, parts);
  if (!started.ok) {
    upstreamRefusal();
    await harness.value.close();
    return err(started.error);
  }
  const first = (current.first = started.generation);
  const sets = (current.sets = new PluginSets(first, {
    parts,
    served: front.services,
    hostServices: new Set([Diagnostics.id, Views.id, SessionPlugins.id, Storage.id, Presence.id]),
    source: options.reloadSource,
    ...(options.reloadDrainMs === undefined ? {} : { drainMs: options.reloadDrainMs }),
  }));
  // The plugins' registry got the host's services before `sets` existed: the `plugins` service joins it now.
  first.providing.services.provide(SessionPlugins, sets.service);
  for (const repair of harness.value.recovery) reported.record('host', 'recovery', 'warning', repair);
  for (const problem of options.loadProblems ?? []) reported.record('host', 'load', 'error', problem);
  const missing = toolsCalledIn(harness.value.tree.messages()).filter((name) => !first.tools.current().has(name));
  if (missing.length > 0) {
    const message = `missing_identities: the history calls tools no loaded plugin provides: ${missing.join(', ')} (a plugin that was in the manifest when they ran is missing now; calls to them fail)`;
    reported.record('host', 'missing_identities', 'warning', message);
  }
  front.services.replaceAll(first.providing.services);
  // Read at each hello: after a reload it names the plugins that run now, each with the API its package declares.
  const hello = {
    pluginApi: PLUGIN_API_VERSION,
    get plugins() {
      return (live()?.facets ?? options.facets).map(({ id, apiVersion }) => ({
        id,
        ...(apiVersion === undefined ? {} : { apiVersion }),
      }));
    },
  };
  const rpc = front.expose({ hello, ...options.transport });
  const connected = new Set<string>();
  rpc.onClientConnect((clientId) => {
    connected.add(clientId);
    presence.connected(clientId);
    views.clientConnected(clientId);
  });
  rpc.onClientDisconnect((clientId) => {
    connected.delete(clientId);
    presence.disconnected(clientId);
    views.clientDisconnected(clientId);
  });
  sets.serve(rpc, () => [...connected]);
  // Every facet is active and the surface exists, but no client can connect before this returns.
  const { sessionId } = options.identity;
  await first.lifecycle.started({ sessionId, created: harness.value.created, recovery: harness.value.recovery });
  const closeUnclaimed = (resuming: string | null) => {
    const unclaimed = views.closeUnclaimed(resuming);
    if (unclaimed.length > 0)
      options.log?.(`closed ${unclaimed.length} restored view(s) no plugin took back: ${unclaimed.join(', ')}`);
  };
  // The views of a parked run's tool calls wait for it: its tools take them back when they run again.
  const resuming = harness.value.parked;
  closeUnclaimed(resuming);
  if (resuming !== null) {
    const stop = harness.value.events.subscribe((event) => {
      if (event.type !== 'run_settled' || event.operationId !== resuming) return;
      stop();
      closeUnclaimed(null);
    });
  }
  // Follow-ups a stop or crash left queued run now, attended or not: providers, settings and listeners are up.
  const activity = sessionActivity(harness.value);
  const known = harness.value.recovery.length;
  harness.value.startQueue();
  // What became of a parked run (resumed, or settled as interrupted) is decided only now, with the tools known.
  for (const line of harness.value.recovery.slice(known)) reported.record('host', 'recovery', 'warning', line);

  const pluginSets = sets;
  let stopping: Promise<KernelStopReport> | undefined;
  return ok({
    identity: options.identity,
    rpc,
    activity,
    diagnostics: () => ({
      ...pluginSets.live.errors,
      recovery: harness.value.recovery,
      callbacks: front.failures.list(),
    }),
    reload: () => pluginSets.reload(),
    stop: () =>
      (stopping ??= (async () => {
        rpc.close();
        // A reload under way finishes first (its candidate is then the live set, disposed below); none starts after.
        await pluginSets.close();
        const current = pluginSets.live;
        await current.lifecycle.stopping({ sessionId });
        const report = await current.stop({ retire: false });
        await viewWriter.flushed();
        await records.flushed();
        await harness.value.close();
        activity.dispose();
        upstreamRefusal();
        return report;
      })()),
  });
}
