import type { Context } from '@pi/context';
import type { ManifestEntry, PluginLifecycleScope } from '@pi/kernel';
import type {
  EventProjection,
  Interaction,
  LocalService,
  MutableRemoteEvents,
  MutableRemoteState,
  ProjectionKey,
  RemoteService,
  StateProjection,
} from '@pi/remote';

export interface InteractionRequestOptions {
  /** How long the eligible client may take to answer (the host's default otherwise). */
  readonly timeoutMs?: number;
  /** With no client handling the interaction, wait this long for one to declare a handler instead of failing
   *  with `no_handler` at once (an unattended session waiting for a presentation); then `timeout`. */
  readonly waitForHandlerMs?: number;
  /** Ask this client only (e.g. the one whose call started the interaction: `context.value(CLIENT_ID)`). */
  readonly clientId?: string;
}

/** Asks one eligible connected presentation for a decision (spec: SessionInteractions). */
export interface ProvidingInteractions {
  request<Request, Response>(
    interaction: Interaction<Request, Response>,
    request: Request,
    context: Context,
    options?: InteractionRequestOptions,
  ): Promise<Response>;
}

/**
 * What every facet of a providing host (session, coordinator) receives besides its host's own authority: the
 * service registry, authoritative state and events, reverse interactions and connection callbacks. Everything
 * registered through it is owned by the plugin's scope.
 */
export interface ProvidingPluginContext extends PluginLifecycleScope {
  readonly pluginId: string;
  /** The manifest entry's config, or null. */
  readonly config: ManifestEntry['config'];
  provide<T>(service: RemoteService<T> | LocalService<T>, implementation: T): void;
  /**
   * Synchronous local use: the real object the providing facet registered. Throws naming this plugin and the
   * service when no plugin provides it (yet: a plugin provides during its setup, in manifest order).
   */
  use<T>(service: RemoteService<T> | LocalService<T>): T;
  /** The service if a plugin provides it, else undefined: for a service whose plugin may be left out. */
  tryUse<T>(service: RemoteService<T> | LocalService<T>): T | undefined;
  /**
   * Calls back with the service once a plugin provides it (at once if one already does): for an optional service
   * whose plugin may come later in the manifest. Owned by the plugin's scope; returns the remover.
   */
  onService<T>(service: RemoteService<T> | LocalService<T>, callback: (implementation: T) => void): () => void;
  /**
   * Authoritative state; with `projectFor`, each connection is sent only its projection of the value. With
   * `projectionKey` too, connections with equal keys share one projection (computed and encoded once per change).
   */
  remoteState<T>(
    initial: T,
    options?: { projectFor?: StateProjection<T>; projectionKey?: ProjectionKey },
  ): MutableRemoteState<T>;
  /** Authoritative events; with `projectFor`, each connection is sent its projection (or nothing), shared by key
   *  with `projectionKey`. */
  remoteEvents<E>(options?: { projectFor?: EventProjection<E>; projectionKey?: ProjectionKey }): MutableRemoteEvents<E>;
  readonly interactions: ProvidingInteractions;
  /** Returns the remover; the plugin's scope also removes it on disposal. */
  onClientConnect(callback: (clientId: string) => void): () => void;
  onClientDisconnect(callback: (clientId: string) => void): () => void;
}
