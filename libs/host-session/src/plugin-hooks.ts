import type { Context } from '@pi/context';
import type { HarnessEvent } from '@pi/agent';
import type { PluginLifecycleScope } from '@pi/kernel';
import type { CodingAgentSessionPluginContext, HarnessEventOf, SessionHookName, SessionHooks } from '@pi/plugin-api';
import type { AgentScopeParts } from './agent-scope';

type Verbs = Pick<CodingAgentSessionPluginContext, 'hook' | 'on'>;

/**
 * The intercept and observe verbs of one plugin: every hook is registered under the plugin's name (reported by it,
 * ordered by its manifest place) and every registration is owned by its scope.
 */
export function pluginHooks(parts: AgentScopeParts, pluginId: string, scope: PluginLifecycleScope): Verbs {
  const { harness, lifecycle, failures } = parts;
  const attach = parts.attach ?? ((register: () => () => void) => register());
  const observe = parts.observe ?? attach;
  const register: { [K in SessionHookName]: (handler: SessionHooks[K]) => () => void } = {
    beforeTool: (handler) => attach(() => harness.hooks.beforeTool(handler)),
    afterTool: (handler) => attach(() => harness.hooks.afterTool(handler, pluginId)),
    beforeModelRequest: (handler) => attach(() => harness.hooks.beforeModelRequest(handler, pluginId)),
    sessionStart: (handler) => lifecycle.sessionStart(handler, pluginId),
    sessionShutdown: (handler) => lifecycle.sessionShutdown(handler, pluginId),
  };
  // Hooks the plugin named, so registering the same name and id again replaces the earlier one.
  const named = new Map<string, () => void>();

  return {
    hook<K extends SessionHookName>(name: K, handler: SessionHooks[K], localId?: string): () => void {
      const add = register[name] as ((handler: SessionHooks[K]) => () => void) | undefined;
      if (add === undefined) throw new TypeError(`Plugin "${pluginId}": there is no session hook named "${name}"`);
      const key = localId === undefined ? undefined : `${name}\u0000${localId}`;
      if (key !== undefined) named.get(key)?.();
      const removeHook = add(handler);
      const remove = () => {
        removeHook();
        if (key !== undefined && named.get(key) === remove) named.delete(key);
      };
      if (key !== undefined) named.set(key, remove);
      scope.own(remove);
      return remove;
    },
    on<T extends HarnessEvent['type'] | '*'>(
      type: T,
      listener: (event: HarnessEventOf<T>, context: Context) => void,
    ): () => void {
      const heard = (event: HarnessEvent, context: Context) => {
        if (type === '*' || event.type === type) listener(event as HarnessEventOf<T>, context);
      };
      // A listener that throws is recorded against its plugin (the harness would only contain it).
      const observed = failures === undefined ? heard : failures.guard(pluginId, `${type} listener`, heard);
      const remove = observe(() => harness.events.subscribe(observed));
      scope.own(remove);
      return remove;
    },
  };
}
