import { describe, expect, it } from 'vitest';
import { createKernel } from './kernel';
import type { EffectFailure } from './kernel-errors';
import { createLifecycleScope } from './lifecycle-scope';
import type { PluginLifecycleScope } from './lifecycle-scope';
import { LateActivationError, StaleScopeError } from './scope-errors';

const ignore = () => undefined;

describe('lifecycle scope', () => {
  it('refuses every registration after dispose with an error naming the plugin', async () => {
    const handle = createLifecycleScope('@pi/git', ignore);
    await handle.dispose();
    const noop = () => undefined;
    expect(() => handle.scope.own(noop)).toThrow(StaleScopeError);
    expect(() => handle.scope.onDispose(noop)).toThrow(/@pi\/git/);
    expect(() => handle.scope.onActivate(noop)).toThrow(/disposed lifecycle scope/);
  });

  it('refuses a registration made by a facet after the kernel stopped', async () => {
    let kept: PluginLifecycleScope | undefined;
    const kernel = createKernel<PluginLifecycleScope>({
      createContext: (scope) => scope,
      onEffectFailure: () => undefined,
    });
    await kernel.start([{ id: '@pi/watcher', facet: (scope) => void (kept = scope) }]);
    await kernel.stop();
    expect(() => kept?.own(() => undefined)).toThrow(StaleScopeError);
  });

  it('refuses a registration made by a disposal callback while the scope disposes', async () => {
    const handle = createLifecycleScope('a', ignore);
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
    const handle = createLifecycleScope('a', ignore);
    handle.scope.onActivate(() => handle.scope.onActivate(() => void log.push('nested')));
    await handle.activate();
    expect(log).toEqual(['nested']);
  });

  it('refuses onActivate after activation finished, since it could never run', async () => {
    const handle = createLifecycleScope('a', ignore);
    await handle.activate();
    expect(() => handle.scope.onActivate(() => undefined)).toThrow(LateActivationError);
  });

  it('disposes only once', async () => {
    let disposals = 0;
    const handle = createLifecycleScope('a', ignore);
    handle.scope.own(() => void (disposals += 1));
    await handle.dispose();
    await handle.dispose();
    expect(disposals).toBe(1);
  });
});

describe('effects', () => {
  function scopeWithReports(pluginId = '@pi/watcher') {
    const failures: EffectFailure[] = [];
    return { handle: createLifecycleScope(pluginId, (failure) => failures.push(failure)), failures };
  }

  it('start when the plugin is active, not while it sets up', async () => {
    const { handle } = scopeWithReports();
    const started: string[] = [];
    handle.scope.effect(() => void started.push('effect'));
    handle.scope.onActivate(() => void started.push('activate'));
    expect(started).toEqual([]);
    await handle.activate();
    expect(started).toEqual(['activate', 'effect']);
  });

  it('start at once once the plugin is active, and activation does not wait for them', async () => {
    const { handle } = scopeWithReports();
    let release: () => void = () => undefined;
    handle.scope.effect(() => new Promise<void>((resolve) => (release = resolve)));
    await handle.activate();
    let ranLater = false;
    handle.scope.effect(() => void (ranLater = true));
    expect(ranLater).toBe(true);
    release();
    await handle.dispose();
  });

  it('see their signal abort when the plugin is disposed, and disposal waits for them to settle', async () => {
    const { handle, failures } = scopeWithReports();
    const log: string[] = [];
    handle.scope.own(() => void log.push('disposal'));
    handle.scope.effect(
      (signal) =>
        new Promise<void>((resolve) =>
          signal.addEventListener('abort', () => setTimeout(() => (log.push('effect settled'), resolve()), 5)),
        ),
    );
    await handle.activate();
    await handle.dispose();
    expect(log).toEqual(['effect settled', 'disposal']);
    expect(failures).toEqual([]);
  });

  it('report a throw or a rejection against the plugin; a rejection after the abort is not a failure', async () => {
    const { handle, failures } = scopeWithReports('@pi/flaky');
    handle.scope.effect(() => {
      throw new Error('no such file');
    });
    handle.scope.effect(
      (signal) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
    );
    await handle.activate();
    await new Promise((resolve) => setImmediate(resolve));
    expect(failures).toEqual([{ pluginId: '@pi/flaky', message: 'effect failed: no such file' }]);
    await handle.dispose();
    expect(failures).toHaveLength(1);
  });

  it('are refused after dispose, and one registered during setup of a disposed scope never runs', async () => {
    const { handle } = scopeWithReports();
    let ran = false;
    handle.scope.effect(() => void (ran = true));
    await handle.dispose();
    await handle.activate();
    expect(ran).toBe(false);
    expect(() => handle.scope.effect(() => undefined)).toThrow(StaleScopeError);
  });

  it('reach the kernel’s reporter from a facet', async () => {
    const failures: EffectFailure[] = [];
    const kernel = createKernel<PluginLifecycleScope>({
      createContext: (scope) => scope,
      onEffectFailure: (failure) => failures.push(failure),
    });
    await kernel.start([{ id: '@pi/broken', facet: (scope) => scope.effect(() => Promise.reject(new Error('down'))) }]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(failures).toEqual([{ pluginId: '@pi/broken', message: 'effect failed: down' }]);
    await kernel.stop();
  });
});
