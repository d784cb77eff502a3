import type { PluginLifecycleScope } from '@pi/kernel';

/** The kernel scope's three members as a facet context carries them (contexts extend the scope). */
export function scopeMembers(scope: PluginLifecycleScope): PluginLifecycleScope {
  return {
    onActivate: (callback) => scope.onActivate(callback),
    onDispose: (callback) => scope.onDispose(callback),
    own: (disposal) => scope.own(disposal),
  };
}
