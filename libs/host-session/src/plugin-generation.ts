import type { AgentHarness, AnyAgentTool, ModelProvider } from '@pi/agent';
import {
  coalescedRebuild,
  ProvidingSide,
  runFacets,
  type CallbackFailures,
  type FacetRunError,
  type LoadedFacet,
  type RunningFacets,
} from '@pi/host-kit';
import type { KernelStopReport } from '@pi/kernel';
import type { SessionIdentity, SessionPaths, SessionUpstream } from '@pi/plugin-api';
import { createRegistry, type ContributionRegistry, type OwnerMessage } from '@pi/registry';
import type { InteractionBroker, ServiceRegistry } from '@pi/remote';
import type { RpcHost } from '@pi/transport-trpc';
import { AttachmentGate } from './attachment-gate';
import { sessionFacetContext } from './facet-context';
import { InFlightCalls } from './in-flight-calls';
import { rebuildDiffLine, type SessionDiagnostics } from './session-diagnostics';
import { SessionLifecycleHooks, type LifecycleHookDeadlines } from './session-lifecycle-hooks';
import { StalePluginSetError, staleAfter } from './stale-handle';
import type { ViewRegistry } from './views/view-registry';
import type { EntryProjectors } from './storage/entry-projectors';
import type { SessionStorage } from './storage/session-storage';

type Registry<T> = ContributionRegistry<T, ReadonlyMap<string, T>>;

/** What every plugin set of one session shares: the session itself and what the host serves of its own. */
export interface SessionHostParts {
  readonly harness: AgentHarness;
  readonly identity: SessionIdentity;
  readonly paths: SessionPaths;
  readonly upstream: SessionUpstream;
  readonly views: ViewRegistry;
  readonly diagnostics: SessionDiagnostics;
  readonly storage: SessionStorage;
  readonly projectors: EntryProjectors;
  readonly broker: InteractionBroker;
  readonly failures: CallbackFailures;
  readonly hookDeadlines?: LifecycleHookDeadlines;
  /** Provides the host's own services (views, diagnostics, plugins) into a set's registry, so its plugins can use them. */
  readonly provideHostServices: (registry: ServiceRegistry) => void;
  /** The number of the set that is live now, for the stale-context error. */
  readonly liveGeneration: () => number;
}

/**
 * One plugin set of a session: its facets' scopes, service registry, tool and provider registries, lifecycle hooks
 * and the calls running in its services. The first set starts with the session; each reload starts another beside
 * the live one as a candidate — its registrations stay in its own registries and its hooks are held until it goes
 * live — so a candidate that fails is disposed without the live set ever noticing.
 */
export class PluginGeneration {
  readonly providing: ProvidingSide;
  readonly tools: Registry<AnyAgentTool>;
  readonly providers: Registry<ModelProvider>;
  readonly lifecycle: SessionLifecycleHooks;
  readonly inFlight = new InFlightCalls();
  /** Hooks into the harness, and event listeners: held until the set is live. */
  readonly #hooks = new AttachmentGate();
  readonly #listeners = new AttachmentGate();
  readonly #ranks: ReadonlyMap<string, number>;
  readonly #rebuilds: { release(): void }[] = [];
  #errors = { tools: [] as readonly OwnerMessage[], providers: [] as readonly OwnerMessage[] };
  #live = false;
  /** Replaced by a reload, or refused as a candidate: every context it handed out is stale. */
  #retired: 'replaced' | 'refused' | undefined;
  #running: RunningFacets | undefined;
  #detach: () => void = () => undefined;

  private constructor(
    readonly number: number,
    readonly facets: readonly LoadedFacet<'session'>[],
    private readonly parts: SessionHostParts,
  ) {
    this.#ranks = new Map(facets.map((facet, index) => [facet.id, index]));
    const ownerRank = (owner: string) => this.#ranks.get(owner) ?? Number.NaN;
    this.providing = new ProvidingSide({ broker: parts.broker, failures: parts.failures });
    parts.provideHostServices(this.providing.services);
    this.tools = createRegistry({ name: 'tools', ownerRank, build: checkedTools });
    this.providers = createRegistry({ name: 'providers', ownerRank, build: (entries) => new Map(entries) });
    this.lifecycle = new SessionLifecycleHooks(ownerRank, parts.failures, parts.hookDeadlines);
  }

  /** Sets the facets up and activates them (a failure disposes what was created); then builds its registries. */
  static async start(
    number: number,
    facets: readonly LoadedFacet<'session'>[],
    parts: SessionHostParts,
    previous?: PluginGeneration,
  ): Promise<{ ok: true; generation: PluginGeneration } | { ok: false; error: FacetRunError }> {
    const generation = new PluginGeneration(number, facets, parts);
    if (previous !== undefined) generation.#errors = previous.#errors;
    const toolRebuild = coalescedRebuild(() => generation.#report('tools'));
    const providerRebuild = coalescedRebuild(() => generation.#report('providers'));
    generation.#rebuilds.push(toolRebuild, providerRebuild);
    const running = await runFacets(
      facets,
      (scope, facet) => {
        const context = sessionFacetContext(scope, facet, {
          ...parts,
          providing: generation.providing,
          lifecycle: generation.lifecycle,
          attach: (attach) => generation.#hooks.attach(attach),
          observe: (attach) => generation.#listeners.attach(attach),
          tools: { registry: generation.tools, rebuild: toolRebuild.request },
          providers: { registry: generation.providers, rebuild: providerRebuild.request },
        });
        return staleAfter(context, () => generation.#refuseWhenRetired(facet.id));
      },
      (failure) => parts.failures.record(failure.pluginId, failure.message),
    );
    if (running.isErr()) {
      generation.#hooks.close();
      generation.#listeners.close();
      generation.#retired = 'refused';
      return { ok: false, error: running.error };
    }
    generation.#running = running.value;
    toolRebuild.release();
    providerRebuild.release();
    return { ok: true, generation };
  }

  /** Contribution errors of the last rebuild of each registry, by owner. */
  get errors(): { readonly tools: readonly OwnerMessage[]; readonly providers: readonly OwnerMessage[] } {
    return this.#errors;
  }

  get plugins(): string[] {
    return this.facets.map((facet) => facet.id);
  }

  /** The set is live: its held hooks attach, it serves through `rpc` and hears its clients, first those `connected`. */
  goLive(rpc: RpcHost, connected: readonly string[]): void {
    this.#live = true;
    this.#hooks.open();
    this.#listeners.open();
    this.#detach = this.providing.serveThrough(rpc, connected);
  }

  /**
   * Replaced: its hooks stop intercepting the session at once (the new set's took over), it hears no more clients
   * and attaches nothing more; calls running in it may still finish, and its listeners hear the session until then.
   */
  replaced(): void {
    this.#live = false;
    this.#hooks.close({ detach: true });
    this.#listeners.close();
    this.#detach();
  }

  /** Disposes every facet in reverse order; after a reload, every context of the set is stale from then on. */
  async stop(options: { readonly retire: boolean }): Promise<KernelStopReport> {
    const report = (await this.#running?.stop()) ?? { failures: [] };
    if (options.retire) this.#retired = 'replaced';
    return report;
  }

  #refuseWhenRetired(pluginId: string): void {
    if (this.#retired === undefined) return;
    const refused = this.#retired === 'refused';
    throw new StalePluginSetError(pluginId, this.number, this.parts.liveGeneration(), refused);
  }

  /** Rebuilds one registry and records what is new: errors always, the diff once the set is live. */
  #report(name: 'tools' | 'providers'): void {
    const registry: Registry<unknown> = name === 'tools' ? this.tools : this.providers;
    const rebuilt = rebuildOutcome(registry);
    const known = new Set(this.#errors[name].map((error) => `${error.owner}\u0000${error.message}`));
    for (const error of rebuilt.errors) {
      if (!known.has(`${error.owner}\u0000${error.message}`))
        this.parts.diagnostics.record(error.owner, 'rebuild', 'error', error.message);
    }
    const diff = this.#live ? rebuildDiffLine(name, rebuilt) : null;
    if (diff !== null) this.parts.diagnostics.record('host', 'rebuild', 'info', diff);
    this.#errors = { ...this.#errors, [name]: rebuilt.errors };
  }
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
