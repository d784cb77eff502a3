import type { AgentHarness, AnyAgentTool, ModelProvider } from '@pi/agent';
import type { Context } from '@pi/context';
import type { PluginLifecycleScope } from '@pi/kernel';
import type { ContributionRegistry } from '@pi/registry';
import {
  createRemoteEvents,
  createRemoteState,
  type InteractionBroker,
  type Interaction,
  type ServiceRegistry,
} from '@pi/remote';
import { absentUpstream } from './absent-upstream';
import { agentScope } from './agent-scope';
import type { CallbackFailures } from './callback-failures';
import { scopedContributions } from './scoped-contributions';
import type { CodingAgentSessionPluginContext, SessionIdentity, SessionPaths } from './session-context';

type ClientListener = (clientId: string) => void;

/** What the host shares with every facet context it builds (each context scopes it to one plugin). */
export interface HostParts {
  readonly harness: AgentHarness;
  readonly identity: SessionIdentity;
  readonly paths: SessionPaths;
  readonly services: ServiceRegistry;
  readonly tools: {
    readonly registry: ContributionRegistry<AnyAgentTool, ReadonlyMap<string, AnyAgentTool>>;
    readonly rebuild: () => void;
  };
  readonly providers: {
    readonly registry: ContributionRegistry<ModelProvider, ReadonlyMap<string, ModelProvider>>;
    readonly rebuild: () => void;
  };
  readonly broker: InteractionBroker;
  readonly connectListeners: Set<ClientListener>;
  readonly disconnectListeners: Set<ClientListener>;
  readonly failures: CallbackFailures;
  /** True once the RPC surface exists; a service provided after that could never be reached. */
  readonly exposed: () => boolean;
}

/**
 * One facet's context: the kernel scope plus exactly the session capabilities a plugin may hold. Everything a
 * facet registers through it is owned by its scope, so disposing the plugin removes it.
 */
export function facetContext(
  scope: PluginLifecycleScope,
  pluginId: string,
  config: CodingAgentSessionPluginContext['config'],
  host: HostParts,
): CodingAgentSessionPluginContext {
  const listen = (listeners: Set<ClientListener>, what: string, callback: ClientListener): (() => void) => {
    const guarded = host.failures.guard(pluginId, what, callback);
    listeners.add(guarded);
    const remove = () => void listeners.delete(guarded);
    scope.own(remove);
    return remove;
  };
  return Object.freeze({
    onActivate: (callback) => scope.onActivate(callback),
    onDispose: (callback) => scope.onDispose(callback),
    own: (disposal) => scope.own(disposal),
    pluginId,
    config,
    agent: agentScope(host.harness, pluginId, host.identity, scope, host.failures),
    paths: host.paths,
    provide(service, implementation) {
      if (host.exposed())
        throw new Error(
          `Plugin "${pluginId}": provide services during setup or activation, not after the host started`,
        );
      scope.own(host.services.provide(service, implementation));
    },
    use: (service) => host.services.use(service),
    remoteState: (initial) => createRemoteState(initial),
    remoteEvents: () => createRemoteEvents(),
    upstream: absentUpstream(),
    providers: scopedContributions(host.providers.registry, pluginId, scope, host.providers.rebuild, host.failures),
    tools: scopedContributions(host.tools.registry, pluginId, scope, host.tools.rebuild, host.failures),
    interactions: Object.freeze({
      request: <Request, Response>(
        interaction: Interaction<Request, Response>,
        request: Request,
        context: Context,
        options?: { timeoutMs?: number },
      ) => host.broker.request(interaction, request, context, options),
    }),
    onClientConnect: (callback) => listen(host.connectListeners, 'onClientConnect callback', callback),
    onClientDisconnect: (callback) => listen(host.disconnectListeners, 'onClientDisconnect callback', callback),
  } satisfies CodingAgentSessionPluginContext);
}
