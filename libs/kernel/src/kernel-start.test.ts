import { describe, expect, it } from 'vitest';
import { createKernel } from './kernel';
import type { PluginLifecycleScope } from './lifecycle-scope';
import type { FacetEntry, PluginFacet } from './plugin-facet';

interface ExampleContext {
  readonly id: string;
  readonly scope: PluginLifecycleScope;
}

function exampleKernel() {
  return createKernel<ExampleContext>({
    createContext: (scope, entry) => ({ id: entry.id, scope }),
    onEffectFailure: () => undefined,
  });
}

/** A facet that logs its setup, activation and disposal, so tests can assert order. */
function loggingFacet(
  log: string[],
  extra: PluginFacet<ExampleContext> = () => undefined,
): PluginFacet<ExampleContext> {
  return async (context) => {
    log.push(`setup ${context.id}`);
    context.scope.own(() => void log.push(`dispose ${context.id}`));
    context.scope.onActivate(() => void log.push(`activate ${context.id}`));
    await extra(context);
  };
}

function facets(log: string[], ids: string[], extras: Record<string, PluginFacet<ExampleContext>> = {}) {
  return ids.map((id): FacetEntry<ExampleContext> => ({ id, facet: loggingFacet(log, extras[id]) }));
}

describe('kernel start', () => {
  it('sets up every facet in manifest order before activating any', async () => {
    const log: string[] = [];
    const result = await exampleKernel().start(facets(log, ['@pi/session-core', '@pi/chat', '@pi/question']));
    expect(result.isOk()).toBe(true);
    expect(log).toEqual([
      'setup @pi/session-core',
      'setup @pi/chat',
      'setup @pi/question',
      'activate @pi/session-core',
      'activate @pi/chat',
      'activate @pi/question',
    ]);
  });

  it('lets an activation see registrations made by facets later in the manifest', async () => {
    const registered = new Set<string>();
    let seenAtActivation: string[] = [];
    const kernel = exampleKernel();
    await kernel.start([
      { id: 'a', facet: ({ scope }) => scope.onActivate(() => void (seenAtActivation = [...registered])) },
      { id: 'b', facet: ({ id }) => void registered.add(id) },
    ]);
    expect(seenAtActivation).toEqual(['b']);
  });

  it('awaits each activation before starting the next', async () => {
    const log: string[] = [];
    const slow: PluginFacet<ExampleContext> = ({ scope }) =>
      scope.onActivate(async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        log.push('slow activation finished');
      });
    await exampleKernel().start(facets(log, ['a', 'b'], { a: slow }));
    expect(log.indexOf('slow activation finished')).toBeLessThan(log.indexOf('activate b'));
  });

  it('rolls back in reverse order when a facet throws during setup, including its partial registrations', async () => {
    const log: string[] = [];
    const failing: PluginFacet<ExampleContext> = () => {
      throw new Error('no credentials');
    };
    const result = await exampleKernel().start(facets(log, ['a', 'b', 'c', 'd'], { c: failing }));
    expect(log).toEqual(['setup a', 'setup b', 'setup c', 'dispose c', 'dispose b', 'dispose a']);
    expect(result._unsafeUnwrapErr()).toMatchObject({ code: 'plugin_failed', pluginId: 'c', phase: 'setup' });
    expect(result._unsafeUnwrapErr().message).toContain('no credentials');
  });

  it('rolls back every scope in reverse order when an activation callback rejects', async () => {
    const log: string[] = [];
    const failing: PluginFacet<ExampleContext> = ({ scope }) =>
      scope.onActivate(() => Promise.reject(new Error('port in use')));
    const result = await exampleKernel().start(facets(log, ['a', 'b', 'c'], { b: failing }));
    expect(log).toEqual([
      'setup a',
      'setup b',
      'setup c',
      'activate a',
      'activate b',
      'dispose c',
      'dispose b',
      'dispose a',
    ]);
    const error = result._unsafeUnwrapErr();
    expect(error).toMatchObject({ code: 'plugin_failed', pluginId: 'b', phase: 'activate' });
    expect(error.message).toContain('port in use');
  });

  it('reports disposal errors seen during rollback and still disposes the rest', async () => {
    const log: string[] = [];
    const brokenDisposal: PluginFacet<ExampleContext> = ({ scope }) =>
      scope.own(() => {
        throw new Error('socket already closed');
      });
    const failing: PluginFacet<ExampleContext> = () => Promise.reject(new Error('boom'));
    const result = await exampleKernel().start(facets(log, ['a', 'b', 'c'], { b: brokenDisposal, c: failing }));
    expect(result._unsafeUnwrapErr()).toMatchObject({
      pluginId: 'c',
      disposalFailures: [{ pluginId: 'b', message: 'socket already closed' }],
    });
    expect(log.slice(-3)).toEqual(['dispose c', 'dispose b', 'dispose a']);
  });

  it('treats a host context that throws as a setup failure of that plugin', async () => {
    const kernel = createKernel<ExampleContext>({
      createContext: () => {
        throw new Error('context refused');
      },
      onEffectFailure: () => undefined,
    });
    const result = await kernel.start([{ id: 'a', facet: () => undefined }]);
    expect(result._unsafeUnwrapErr()).toMatchObject({ code: 'plugin_failed', pluginId: 'a', phase: 'setup' });
  });

  it('refuses a second start', async () => {
    const kernel = exampleKernel();
    await kernel.start([]);
    expect((await kernel.start([]))._unsafeUnwrapErr().code).toBe('already_started');
  });

  it('refuses concurrent starts', async () => {
    const kernel = exampleKernel();
    const [first, second] = await Promise.all([kernel.start([]), kernel.start([])]);
    expect(first.isOk()).toBe(true);
    expect(second._unsafeUnwrapErr().code).toBe('already_started');
  });

  it('refuses a plugin that appears twice before running any facet', async () => {
    const log: string[] = [];
    const result = await exampleKernel().start(facets(log, ['a', 'b', 'a']));
    expect(result._unsafeUnwrapErr()).toMatchObject({ code: 'duplicate_plugin' });
    expect(log).toEqual([]);
  });

  it('refuses to start after stop', async () => {
    const kernel = exampleKernel();
    await kernel.stop();
    expect((await kernel.start([]))._unsafeUnwrapErr().code).toBe('stopped');
  });
});
