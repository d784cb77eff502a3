import type { Context } from '@pi/context';
import type { ManifestEntry, PluginLifecycleScope } from '@pi/kernel';
import type { ConsumingPluginContext } from '@pi/plugin-api';
import { scopeMembers } from './scope-members';
import type { Interaction, Lease, RemoteService } from '@pi/remote';
import type { RpcClient } from '@pi/transport-trpc';

/**
 * The consuming capabilities of one plugin's context over the host's one client connection: `use` acquires a
 * shared proxy (one lease per token per plugin, released when the plugin is disposed), and interaction handlers
 * are removed with the plugin.
 */
export function consumingContext(
  scope: PluginLifecycleScope,
  pluginId: string,
  config: ManifestEntry['config'],
  client: RpcClient,
): ConsumingPluginContext {
  const leases = new Map<string, Promise<Lease<unknown>>>();
  let disposed = false;
  scope.own(() => {
    disposed = true;
    for (const lease of leases.values()) lease.then((held) => held.release()).catch(() => undefined);
    leases.clear();
  });
  return Object.freeze({
    ...scopeMembers(scope),
    pluginId,
    config,
    async use<T>(service: RemoteService<T>): Promise<T> {
      if (disposed) throw new Error(`Plugin "${pluginId}" was disposed; it cannot use "${service.id}"`);
      let lease = leases.get(service.id);
      if (lease === undefined) {
        lease = client.acquire(service) as Promise<Lease<unknown>>;
        leases.set(service.id, lease);
        lease.catch(() => leases.delete(service.id));
      }
      return (await lease).service as T;
    },
    connection: client.connection,
    interactions: Object.freeze({
      handle<Request, Response>(
        interaction: Interaction<Request, Response>,
        handler: (request: Request, context: Context) => Promise<Response>,
      ): () => void {
        const remove = client.handle(interaction, handler);
        scope.own(remove);
        return remove;
      },
    }),
  } satisfies ConsumingPluginContext);
}
