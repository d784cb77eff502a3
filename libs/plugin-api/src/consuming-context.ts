import type { Context } from '@pi/context';
import type { ManifestEntry, PluginLifecycleScope } from '@pi/kernel';
import type { ConnectionState, Interaction, RemoteService, RemoteState } from '@pi/remote';

/** Handles interactions a providing host sends this presentation (spec: PresentationInteractions). */
export interface ConsumingInteractions {
  /** Returns the remover; the plugin's scope also removes it on disposal. */
  handle<Request, Response>(
    interaction: Interaction<Request, Response>,
    handler: (request: Request, context: Context) => Promise<Response>,
  ): () => void;
}

/**
 * What every facet of a consuming host (a presentation such as the TUI) receives: remote, demand-driven `use`
 * of the services its providing host exposes, the connection's state, and interaction handlers. A presentation
 * host's own context extends this with its UI facilities.
 */
export interface ConsumingPluginContext extends PluginLifecycleScope {
  readonly pluginId: string;
  /** The manifest entry's config, or null. */
  readonly config: ManifestEntry['config'];
  /** A typed proxy, hydrated before it resolves; concurrent consumers share one proxy and one replica. The
   *  lease is released when the plugin is disposed. */
  use<T>(service: RemoteService<T>): Promise<T>;
  readonly connection: RemoteState<ConnectionState>;
  readonly interactions: ConsumingInteractions;
}
