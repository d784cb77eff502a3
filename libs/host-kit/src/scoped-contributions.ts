import type { PluginLifecycleScope } from '@pi/kernel';
import type { ContributionRegistry, Draft } from '@pi/registry';
import type { CallbackFailures } from './callback-failures';
import type { ScopedContributions } from '@pi/plugin-api';

/**
 * A registry handed to one facet: contributions are owned by the plugin (removed, and replayed without, when
 * it is disposed) and each change asks the host for a coalesced rebuild.
 */
export function scopedContributions<T>(
  registry: ContributionRegistry<T, ReadonlyMap<string, T>>,
  owner: string,
  scope: PluginLifecycleScope,
  requestRebuild: () => void,
  failures: CallbackFailures,
): ScopedContributions<T> {
  return Object.freeze({
    add(contribution: (draft: Draft<T>) => void) {
      const remove = registry.add(owner, contribution);
      let removed = false;
      const remover = () => {
        if (removed) return;
        removed = true;
        remove();
        requestRebuild();
      };
      scope.own(remover);
      requestRebuild();
      return remover;
    },
    rebuild: requestRebuild,
    current: () => registry.current(),
    onRebuild(listener: (state: ReadonlyMap<string, T>) => void) {
      const guarded = failures.guard(owner, `${registry.name} rebuild listener`, listener);
      const remove = registry.onRebuild((rebuilt) => guarded(rebuilt.state));
      scope.own(remove);
      return remove;
    },
  });
}

/**
 * Rebuilds coalesced into one per microtask, and held back until the host has finished booting (one bulk
 * rebuild then replaces them all).
 */
export function coalescedRebuild(rebuild: () => void): { request(): void; release(): void } {
  let held = true;
  let scheduled = false;
  return {
    request() {
      if (held || scheduled) return;
      scheduled = true;
      queueMicrotask(() => {
        scheduled = false;
        rebuild();
      });
    },
    release() {
      held = false;
      rebuild();
    },
  };
}
