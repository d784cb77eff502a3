import { err, ok, type Result } from 'neverthrow';
import type { FacetRunError, RunnableFacet, RunningFacets } from '@pi/host-kit';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { SessionPlugins, type CodingAgentTuiPluginContext, type TuiFacilities } from '@pi/plugin-api';
import type { RpcClient } from '@pi/transport-trpc';
import type { CommandRegistry } from './command-registry';

type TuiFacet = RunnableFacet<CodingAgentTuiPluginContext>;

/**
 * Reads this TUI's plugin set anew for a reload (manifests, then the tui facet modules as module generation
 * `generation`); a failure is one line naming the file.
 */
export type TuiFacetSource<F extends TuiFacet = TuiFacet> = (
  generation: number,
) => Promise<Result<readonly F[], string>>;

/**
 * The TUI's running facets, which a reload replaces. A presentation holds no authority and its registries are
 * keyed by plugin, so the old facets are disposed before the new ones run; should the new ones fail, the old facets
 * (their modules already loaded and known to work) run again, and the TUI looks as before.
 */
export class TuiFacetSet<F extends TuiFacet = TuiFacet> {
  #facets: readonly F[];
  #running: RunningFacets;
  readonly #run: (facets: readonly F[]) => Promise<Result<RunningFacets, FacetRunError>>;

  constructor(
    facets: readonly F[],
    running: RunningFacets,
    run: (facets: readonly F[]) => Promise<Result<RunningFacets, FacetRunError>>,
  ) {
    this.#facets = facets;
    this.#running = running;
    this.#run = run;
  }

  /** The facets running now: those the TUI started with, or the last reload's that ran. */
  get facets(): readonly F[] {
    return this.#facets;
  }

  /** Runs `facets` instead of the current ones; on failure the current ones run again and the error is returned. */
  async replace(facets: readonly F[]): Promise<Result<void, string>> {
    await this.#running.stop();
    const next = await this.#run(facets);
    if (next.isErr()) {
      const previous = await this.#run(this.#facets);
      if (previous.isOk()) this.#running = previous.value;
      return err(next.error.message);
    }
    this.#facets = facets;
    this.#running = next.value;
    return ok(undefined);
  }

  stop(): ReturnType<RunningFacets['stop']> {
    return this.#running.stop();
  }
}

export interface ReloadCommandParts<F extends TuiFacet> {
  readonly commands: CommandRegistry;
  readonly client: RpcClient;
  readonly facets: TuiFacetSet<F>;
  /** Where the TUI reads its own plugin set anew; absent: its facets stay as they are. */
  readonly source: TuiFacetSource<F> | undefined;
  readonly notify: TuiFacilities['notify'];
  /** Records a failure in this TUI's own diagnostics (listed by /diagnostics). */
  readonly fail: (owner: string, message: string) => void;
}

/**
 * `/reload`: the session reloads its plugin set (the `plugins` service), then this TUI its own facets, on the same
 * connection. Either failing leaves its previous set running and says why, in a notice and in /diagnostics.
 * Returns the reload itself, for `--dev`.
 */
export function registerReloadCommand<F extends TuiFacet>(parts: ReloadCommandParts<F>): () => Promise<void> {
  let generation = 1;
  let running: Promise<void> | undefined;
  const reload = async () => {
    const plugins = await parts.client.acquire(SessionPlugins);
    let outcome;
    try {
      outcome = await plugins.service.reload(BACKGROUND_CONTEXT);
    } finally {
      plugins.release();
    }
    if (!outcome.ok) {
      parts.notify(`Reload refused: ${outcome.message}`, 'error');
      return;
    }
    if (parts.source !== undefined) {
      generation += 1;
      const facets = await parts.source(generation);
      const replaced = facets.isErr() ? err(facets.error) : await parts.facets.replace(facets.value);
      if (replaced.isErr()) {
        parts.fail('host', `reload refused: this TUI's plugins stay as they were: ${replaced.error}`);
        parts.notify(`Session reloaded; TUI plugins kept: ${replaced.error}`, 'error');
        return;
      }
    }
    parts.notify(`Reloaded: ${outcome.message.replace(/^reloaded: /, '')}`);
  };
  const once = () => (running ??= reload().finally(() => (running = undefined)));
  parts.commands.register('host', {
    id: 'reload',
    slash: 'reload',
    description: "Reload plugins, settings, context files and resources (the session's and this TUI's)",
    needsSession: true,
    run: () => once(),
  });
  return once;
}
