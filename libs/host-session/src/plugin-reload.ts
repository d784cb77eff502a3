import type { Result } from 'neverthrow';
import { BACKGROUND_CONTEXT } from '@pi/context';
import type { LoadedFacet } from '@pi/host-kit';
import type { PluginSetState, ReloadOutcome, SessionPluginsService } from '@pi/plugin-api';
import { createRemoteState, type ServiceRegistry } from '@pi/remote';
import type { RpcHost } from '@pi/transport-trpc';
import { PluginGeneration, type SessionHostParts } from './plugin-generation';

/**
 * Reads the plugin set anew for a reload: manifests, then this host's facet modules, imported as module
 * generation `generation` (a fresh instance of a plugin's changed code). A failure is one line naming the file.
 */
export type PluginSetSource = (generation: number) => Promise<Result<readonly LoadedFacet<'session'>[], string>>;

/** How long a reload lets calls running in the replaced set finish before it disposes the set. */
export const RELOAD_DRAIN_MS = 5_000;

export interface PluginSetsOptions {
  readonly parts: SessionHostParts;
  /** The registry the host's RPC surface serves from; a swap replaces its services with the new set's. */
  readonly served: ServiceRegistry;
  /** Ids of the host's own services, served as they are (never counted or drained). */
  readonly hostServices: ReadonlySet<string>;
  readonly source: PluginSetSource | undefined;
  readonly drainMs?: number;
}

/**
 * The session's plugin sets: the live one, and `reload`, which starts a candidate beside it and swaps it in only
 * once every facet set up and activated. The swap is one step for clients: the served registry takes on the new
 * set's services (watches restart on them with a fresh snapshot) and its held hooks attach. Then the old set is
 * told it is shutting down, its running calls drain (bounded), it is disposed in reverse order, and every context it
 * handed out throws when used; last, the new set's start hooks run. A candidate that fails is disposed by the kernel
 * and the live set never noticed; the error goes to the caller, the diagnostics and `state.lastReload`.
 */
export class PluginSets {
  readonly #options: PluginSetsOptions;
  readonly #state: ReturnType<typeof createRemoteState<PluginSetState>>;
  #live: PluginGeneration;
  #rpc: RpcHost | undefined;
  #connected: () => readonly string[] = () => [];
  /** Module generations are never reused: a refused candidate's modules stay cached under its number. */
  #attempts = 1;
  #reloading: Promise<ReloadOutcome> | undefined;
  #closed = false;
  /** The services the host's surface routes: generated once, at start. */
  #routed = new Set<string>();
  readonly service: SessionPluginsService;

  constructor(first: PluginGeneration, options: PluginSetsOptions) {
    this.#live = first;
    this.#options = options;
    this.#state = createRemoteState<PluginSetState>({
      generation: first.number,
      plugins: first.plugins,
      reloading: false,
      lastReload: null,
    });
    this.service = { state: this.#state, reload: () => this.reload() };
  }

  get live(): PluginGeneration {
    return this.#live;
  }

  /** The first set goes live on the host's surface; `connected` lists the clients a new set should hear of. */
  serve(rpc: RpcHost, connected: () => readonly string[]): void {
    this.#rpc = rpc;
    this.#routed = new Set(this.#live.providing.services.exposedIds());
    this.#connected = connected;
    this.#serveLive();
    this.#live.goLive(rpc, []);
  }

  /** Starts the plugin set anew; a reload asked for while one runs shares its outcome. */
  reload(): Promise<ReloadOutcome> {
    if (this.#closed) return Promise.resolve(this.#refused('the session is stopping'));
    return (this.#reloading ??= this.#reload().finally(() => (this.#reloading = undefined)));
  }

  /** Refuses further reloads and resolves once none is under way (the session's stop, before it disposes the set). */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#reloading;
  }

  async #reload(): Promise<ReloadOutcome> {
    this.#publish({ reloading: true });
    const previous = this.#live;
    const { parts, source } = this.#options;
    this.#attempts += 1;
    const facets = source === undefined ? { ok: true as const, value: previous.facets } : await this.#read(source);
    if (!facets.ok) return this.#refused(`the plugin set could not be read: ${facets.error}`);
    const started = await PluginGeneration.start(previous.number + 1, facets.value, parts, previous);
    if (!started.ok) return this.#refused(`the new plugin set did not start: ${started.error.message}`);
    const next = started.generation;
    await previous.lifecycle.stopping({ sessionId: parts.identity.sessionId });
    previous.replaced();
    this.#live = next;
    this.#serveLive();
    if (this.#rpc !== undefined) next.goLive(this.#rpc, this.#connected());
    const outcome = { ok: true, generation: next.number, message: swapMessage(previous, next) };
    this.#publish({ generation: next.number, plugins: next.plugins, reloading: true });
    parts.diagnostics.record('host', 'rebuild', 'info', outcome.message);
    const unrouted = next.providing.services.exposedIds().filter((id) => !this.#routed.has(id));
    if (unrouted.length > 0) {
      const message = `service(s) ${unrouted.join(', ')} of the reloaded set reach clients once the session restarts (its RPC surface was generated at start)`;
      parts.diagnostics.record('host', 'rebuild', 'warning', message);
    }
    const running = await previous.inFlight.drained(this.#options.drainMs ?? RELOAD_DRAIN_MS);
    if (running > 0) {
      const message = `${running} call(s) into plugin set ${previous.number} still ran after the reload's drain; the set was disposed under them`;
      parts.diagnostics.record('host', 'rebuild', 'warning', message);
    }
    const report = await previous.stop({ retire: true });
    for (const failure of report.failures)
      parts.diagnostics.record(failure.pluginId, 'rebuild', 'warning', `disposal failed: ${failure.message}`);
    await next.lifecycle.started({ sessionId: parts.identity.sessionId, created: false, recovery: [] });
    this.#publish({ reloading: false, lastReload: { ...outcome, at: Date.now() } });
    return outcome;
  }

  async #read(
    source: PluginSetSource,
  ): Promise<{ ok: true; value: readonly LoadedFacet<'session'>[] } | { ok: false; error: string }> {
    try {
      const read = await source(this.#attempts);
      return read.isOk() ? { ok: true, value: read.value } : { ok: false, error: read.error };
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  }

  /** The served registry takes on the live set's services; calls into the set's own are counted for the drain. */
  #serveLive(): void {
    const live = this.#live;
    const { hostServices } = this.#options;
    this.#options.served.replaceAll(live.providing.services, (service) =>
      hostServices.has(service.id) ? service.implementation : live.inFlight.counted(service),
    );
  }

  #refused(why: string): ReloadOutcome {
    const generation = this.#live.number;
    const message = `${why}; plugin set ${generation} stays live`;
    this.#options.parts.diagnostics.record('host', 'rebuild', 'error', `reload refused: ${message}`);
    const outcome = { ok: false, generation, message };
    this.#publish({ reloading: false, lastReload: { ...outcome, at: Date.now() } });
    return outcome;
  }

  #publish(change: Partial<PluginSetState>): void {
    this.#state.set({ ...this.#state.value, ...change }, BACKGROUND_CONTEXT);
  }
}

/** `plugin set 3 is live (added a; removed b)`: what a reload changed in the list of plugins. */
function swapMessage(previous: PluginGeneration, next: PluginGeneration): string {
  const before = new Set(previous.plugins);
  const after = new Set(next.plugins);
  const added = next.plugins.filter((id) => !before.has(id));
  const removed = previous.plugins.filter((id) => !after.has(id));
  const changes = [
    ...(added.length > 0 ? [`added ${added.join(', ')}`] : []),
    ...(removed.length > 0 ? [`removed ${removed.join(', ')}`] : []),
  ];
  return `reloaded: plugin set ${next.number} is live${changes.length > 0 ? ` (${changes.join('; ')})` : ''}`;
}
