import { err, ok, type Result } from 'neverthrow';
import { openHarness, type AnyAgentTool, type ModelProvider } from '@pi/agent';
import { createKernel, type KernelStartError, type KernelStopReport, type PluginManifest } from '@pi/kernel';
import type { PluginDescriptor } from '@pi/plugin-catalog';
import { createRegistry, type ContributionRegistry, type OwnerMessage } from '@pi/registry';
import { InteractionBroker, ServiceRegistry, type EndpointLimits } from '@pi/remote';
import { createRpcHost, type Authenticate, type RpcHost } from '@pi/transport-trpc';
import { CallbackFailures } from './callback-failures';
import { facetContext, type HostParts } from './facet-context';
import { resolveSessionFacets } from './facet-resolution';
import { coalescedRebuild } from './scoped-contributions';
import type { CodingAgentSessionPluginContext, SessionFacet, SessionIdentity, SessionPaths } from './session-context';
import { RunSettingsService } from './tokens';

export interface SessionHostOptions {
  readonly manifest: PluginManifest;
  readonly catalog: readonly PluginDescriptor[];
  /** This build's session facets by plugin id. */
  readonly facets: Readonly<Record<string, SessionFacet>>;
  readonly identity: SessionIdentity;
  /** The session's JSONL file. */
  readonly sessionFile: string;
  readonly paths: SessionPaths;
  readonly authenticate: Authenticate;
  readonly limits?: Partial<EndpointLimits>;
}

export interface SessionHostError {
  readonly code: 'unknown_plugin' | 'missing_facet' | 'session' | 'plugin_failed' | 'start_refused';
  readonly message: string;
}

export interface SessionHostDiagnostics {
  /** Contribution errors of the last rebuild of each registry, by owner. */
  readonly tools: readonly OwnerMessage[];
  readonly providers: readonly OwnerMessage[];
  /** What restoring the session file repaired. */
  readonly recovery: readonly string[];
  /** Plugin callbacks (rebuild listeners, client connect/disconnect) that threw, latest last. */
  readonly callbacks: readonly OwnerMessage[];
}

export interface SessionHost {
  readonly identity: SessionIdentity;
  /** The RPC surface presentations connect to (serve it with listenWebSocket or a loopback factory). */
  readonly rpc: RpcHost;
  diagnostics(): SessionHostDiagnostics;
  /** Host-owned: closes connections, disposes every facet in reverse manifest order, closes the session. */
  stop(): Promise<KernelStopReport>;
}

type Registry<T> = ContributionRegistry<T, ReadonlyMap<string, T>>;

/**
 * The session app host: one process, one session. It opens the durable session, runs the manifest's session
 * facets through the kernel with a context per facet, rebuilds the registries once everything registered and
 * activated, and only then generates its RPC surface from the services the facets provided.
 */
export async function startSessionHost(options: SessionHostOptions): Promise<Result<SessionHost, SessionHostError>> {
  const resolved = resolveSessionFacets(options.manifest, options.catalog, options.facets);
  if (resolved.isErr()) return err({ code: resolved.error.code, message: resolved.error.message });
  const ranks = new Map(options.manifest.entries.map((entry, index) => [entry.id, index]));
  const ownerRank = (owner: string) => ranks.get(owner) ?? Number.NaN;
  const services = new ServiceRegistry();
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

  const harness = await openHarness({
    file: options.sessionFile,
    cwd: options.paths.cwd,
    tools: () => tools.current(),
    providers: () => providers.current(),
    settings: () =>
      services.has(RunSettingsService)
        ? services.use(RunSettingsService).current()
        : { model: null, thinkingLevel: 'off' },
  });
  if (harness.isErr()) return err({ code: 'session', message: harness.error.message });

  const diagnostics = { tools: [] as readonly OwnerMessage[], providers: [] as readonly OwnerMessage[] };
  const toolRebuild = coalescedRebuild(() => (diagnostics.tools = rebuildErrors(tools)));
  const providerRebuild = coalescedRebuild(() => (diagnostics.providers = rebuildErrors(providers)));
  const failures = new CallbackFailures();
  let exposed = false;
  const parts: HostParts = {
    harness: harness.value,
    identity: options.identity,
    paths: options.paths,
    services,
    tools: { registry: tools, rebuild: toolRebuild.request },
    providers: { registry: providers, rebuild: providerRebuild.request },
    broker: new InteractionBroker(),
    connectListeners: new Set(),
    disconnectListeners: new Set(),
    failures,
    exposed: () => exposed,
  };
  const configs = new Map(resolved.value.map((facet) => [facet.id, facet.config]));
  const kernel = createKernel<CodingAgentSessionPluginContext>({
    createContext: (scope, entry) => facetContext(scope, entry.id, configs.get(entry.id) ?? null, parts),
  });
  const started = await kernel.start(resolved.value.map((facet) => ({ id: facet.id, facet: facet.facet })));
  if (started.isErr()) {
    await harness.value.close();
    return err(startFailure(started.error));
  }
  toolRebuild.release();
  providerRebuild.release();
  const rpc = createRpcHost({
    registry: services,
    broker: parts.broker,
    authenticate: options.authenticate,
    limits: options.limits,
  });
  exposed = true;
  rpc.onClientConnect((clientId) => [...parts.connectListeners].forEach((listener) => listener(clientId)));
  rpc.onClientDisconnect((clientId) => [...parts.disconnectListeners].forEach((listener) => listener(clientId)));

  let stopping: Promise<KernelStopReport> | undefined;
  return ok({
    identity: options.identity,
    rpc,
    diagnostics: () => ({ ...diagnostics, recovery: harness.value.recovery, callbacks: failures.list() }),
    stop: () =>
      (stopping ??= (async () => {
        rpc.close();
        const report = await kernel.stop();
        await harness.value.close();
        return report;
      })()),
  });
}

function startFailure(error: KernelStartError): SessionHostError {
  if (error.code !== 'plugin_failed') return { code: 'start_refused', message: error.message };
  // The kernel's message already names the plugin and the phase; a disposal that failed on the way down is added.
  const disposal = error.disposalFailures
    .map((failure) => `; disposing "${failure.pluginId}" also failed: ${failure.message}`)
    .join('');
  return { code: 'plugin_failed', message: `${error.message}${disposal}` };
}

/** A rebuild's contribution errors. Never throws: it runs in a microtask, where a throw would end the process. */
function rebuildErrors<T>(registry: Registry<T>): readonly OwnerMessage[] {
  try {
    const rebuilt = registry.rebuild();
    return rebuilt.isOk() ? rebuilt.value.errors : [{ owner: 'host', message: rebuilt.error.message }];
  } catch (error) {
    return [
      {
        owner: 'host',
        message: `registry "${registry.name}": ${error instanceof Error ? error.message : String(error)}`,
      },
    ];
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
