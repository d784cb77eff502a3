import { describe, expect, it } from 'vitest';
import { createKernel } from './kernel';
import { createLifecycleScope } from './lifecycle-scope';
import type { PluginLifecycleScope } from './lifecycle-scope';
import { LateActivationError, StaleScopeError } from './scope-errors';

describe('lifecycle scope', () => {
  it('refuses every registration after dispose with an error naming the plugin', async () => {
    const handle = createLifecycleScope('@pi/git');
    await handle.dispose();
    const noop = () => undefined;
    expect(() => handle.scope.own(noop)).toThrow(StaleScopeError);
    expect(() => handle.scope.onDispose(noop)).toThrow(/@pi\/git/);
    expect(() => handle.scope.onActivate(noop)).toThrow(/disposed lifecycle scope/);
  });

  it('refuses a registration made by a facet after the kernel stopped', async () => {
    let kept: PluginLifecycleScope | undefined;
    const kernel = createKernel<PluginLifecycleScope>({ createContext: (scope) => scope });
    await kernel.start([{ id: '@pi/watcher', facet: (scope) => void (kept = scope) }]);
    await kernel.stop();
    expect(() => kept?.own(() => undefined)).toThrow(StaleScopeError);
  });

  it('refuses a registration made by a disposal callback while the scope disposes', async () => {
    const handle = createLifecycleScope('a');
    let thrown: unknown;
    handle.scope.own(() => {
      try {
        handle.scope.own(() => undefined);
      } catch (error) {
        thrown = error;
      }
    });
    await handle.dispose();
    expect(thrown).toBeInstanceOf(StaleScopeError);
  });

  it('runs an activation callback registered during activation in the same pass', async () => {
    const log: string[] = [];
    const handle = createLifecycleScope('a');
    handle.scope.onActivate(() => handle.scope.onActivate(() => void log.push('nested')));
    await handle.activate();
    expect(log).toEqual(['nested']);
  });

  it('refuses onActivate after activation finished, since it could never run', async () => {
    const handle = createLifecycleScope('a');
    await handle.activate();
    expect(() => handle.scope.onActivate(() => undefined)).toThrow(LateActivationError);
  });

  it('disposes only once', async () => {
    let disposals = 0;
    const handle = createLifecycleScope('a');
    handle.scope.own(() => void (disposals += 1));
    await handle.dispose();
    await handle.dispose();
    expect(disposals).toBe(1);
  });
});
