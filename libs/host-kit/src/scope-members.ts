import type { PluginLifecycleScope } from '@pi/kernel';

/** The kernel scope's members as a facet context carries them (contexts extend the scope). */
export function scopeMembers(scope: PluginLifecycleScope): PluginLifecycleScope {
  return {
    onActivate: (callback) => scope.onActivate(callback),
    onDispose: (callback) => scope.onDispose(callback),
    own: (disposal) => scope.own(disposal),
    effect: (setup) => scope.effect(setup),
  };
}
