import type { Context } from '@pi/context';
import type { ManifestEntry, PluginLifecycleScope } from '@pi/kernel';
import type { InteractionRequestOptions, ProvidingPluginContext } from '@pi/plugin-api';
import {
  createRemoteEvents,
  createRemoteState,
  InteractionBroker,
  ServiceRegistrationError,
  ServiceRegistry,
  type Interaction,
  type LocalService,
  type RemoteService,
} from '@pi/remote';
import { createRpcHost, type RpcHost, type RpcHostOptions } from '@pi/transport-trpc';
import { CallbackFailures } from './callback-failures';
import { scopeMembers } from './scope-members';

type ClientListener = (clientId: string) => void;
type ServiceToken = RemoteService<unknown> | LocalService<unknown>;
type ServiceListener = { readonly kind: ServiceToken['kind']; readonly callback: (implementation: unknown) => void };

/** How the RPC surface is served: authentication, limits, keep-alive. */
export type ExposeOptions = Omit<RpcHostOptions, 'registry' | 'broker'>;

/**
 * The providing side every service host shares (session, coordinator): one service registry, one interaction
 * broker, client connect/disconnect callbacks and isolated plugin callbacks. Facets register during setup and
 * activation; `expose` then generates the RPC surface once, and a later `provide` is refused.
 */
export class ProvidingSide {
  readonly services = new ServiceRegistry();
  readonly broker: InteractionBroker;
  readonly failures: CallbackFailures;
  readonly #connectListeners = new Set<ClientListener>();
  readonly #disconnectListeners = new Set<ClientListener>();
  /** Which plugin provides each service id, to name both plugins when a use or a second provide fails. */
  readonly #providers = new Map<string, string>();
  readonly #serviceListeners = new Map<string, Set<ServiceListener>>();
  #rpc: RpcHost | undefined;

  /** A side of its own, or one generation of a host's plugins sharing the host's broker and failures (a reload). */
  constructor(shared: { readonly broker?: InteractionBroker; readonly failures?: CallbackFailures } = {}) {
    this.broker = shared.broker ?? new InteractionBroker();
    this.failures = shared.failures ?? new CallbackFailures();
  }

  /** The providing capabilities of one plugin's context, each registration owned by its scope. */
  contextFor(scope: PluginLifecycleScope, pluginId: string, config: ManifestEntry['config']): ProvidingPluginContext {
    const listen = (listeners: Set<ClientListener>, what: string, callback: ClientListener): (() => void) => {
      const guarded = this.failures.guard(pluginId, what, callback);
      listeners.add(guarded);
      const remove = () => void listeners.delete(guarded);
      scope.own(remove);
      return remove;
    };
    return Object.freeze({
      ...scopeMembers(scope),
      pluginId,
      config,
      provide: (service, implementation) => {
        if (this.#rpc !== undefined) {
          throw new Error(
            `Plugin "${pluginId}": provide services during setup or activation, not after the host started`,
          );
        }
        scope.own(this.#provide(pluginId, service, implementation));
      },
      use: (service) => {
        if (this.services.has(service)) return this.services.use(service);
        throw new ServiceRegistrationError(
          `Plugin "${pluginId}" uses service "${service.id}", which no plugin of this host provides` +
            ' (is the plugin that provides it missing from the manifest, or after this one with a use at setup?)',
        );
      },
      tryUse: (service) => (this.services.has(service) ? this.services.use(service) : undefined),
      onService: <T>(service: RemoteService<T> | LocalService<T>, callback: (implementation: T) => void) => {
        const listener: ServiceListener = {
          kind: service.kind,
          callback: this.failures.guard(
            pluginId,
            `onService("${service.id}") callback`,
            callback as (i: unknown) => void,
          ),
        };
        if (this.services.has(service)) listener.callback(this.services.use(service));
        const listeners = this.#serviceListeners.get(service.id) ?? new Set();
        this.#serviceListeners.set(service.id, listeners.add(listener));
        const remove = () => void listeners.delete(listener);
        scope.own(remove);
        return remove;
      },
      remoteState: (initial, options) =>
        createRemoteState(initial, { projectFor: options?.projectFor, projectionKey: options?.projectionKey }),
      remoteEvents: (options) =>
        createRemoteEvents({ projectFor: options?.projectFor, projectionKey: options?.projectionKey }),
      interactions: Object.freeze({
        request: <Request, Response>(
          interaction: Interaction<Request, Response>,
          request: Request,
          context: Context,
          options?: InteractionRequestOptions,
        ) => this.broker.request(interaction, request, context, options),
      }),
      onClientConnect: (callback) => listen(this.#connectListeners, 'onClientConnect callback', callback),
      onClientDisconnect: (callback) => listen(this.#disconnectListeners, 'onClientDisconnect callback', callback),
    } satisfies ProvidingPluginContext);
  }

  /** Registers `pluginId`'s implementation and tells the plugins waiting for it; a second provider names both. */
  #provide<T>(pluginId: string, service: RemoteService<T> | LocalService<T>, implementation: T): () => void {
    const holder = this.#providers.get(service.id);
    if (holder !== undefined) {
      throw new ServiceRegistrationError(
        `Plugin "${pluginId}" provides service "${service.id}", which plugin "${holder}" already provides`,
      );
    }
    const remove = this.services.provide(service, implementation);
    this.#providers.set(service.id, pluginId);
    for (const listener of this.#serviceListeners.get(service.id) ?? []) {
      if (listener.kind === service.kind) listener.callback(implementation);
    }
    return () => {
      remove();
      if (this.#providers.get(service.id) === pluginId) this.#providers.delete(service.id);
    };
  }

  /** Generates the RPC surface from what the facets provided; called once, after activation. */
  expose(options: ExposeOptions): RpcHost {
    if (this.#rpc !== undefined) throw new Error('The RPC surface is generated once');
    const rpc = createRpcHost({ registry: this.services, broker: this.broker, ...options });
    this.serveThrough(rpc, []);
    return rpc;
  }

  /**
   * Serves through a surface generated elsewhere (a reloaded generation of plugins behind the host's one surface):
   * the plugins hear its clients, first each client already `connected`, and a later `provide` is refused.
   * Returns the detach, for when the generation is replaced.
   */
  serveThrough(rpc: RpcHost, connected: readonly string[]): () => void {
    if (this.#rpc !== undefined) throw new Error('The RPC surface is generated once');
    this.#rpc = rpc;
    const connect = (clientId: string) => [...this.#connectListeners].forEach((listener) => listener(clientId));
    const removeConnect = rpc.onClientConnect(connect);
    const removeDisconnect = rpc.onClientDisconnect((clientId) =>
      [...this.#disconnectListeners].forEach((listener) => listener(clientId)),
    );
    connected.forEach(connect);
    return () => {
      removeConnect();
      removeDisconnect();
    };
  }
}
