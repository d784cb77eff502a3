import { describe, expect, it } from 'vitest';
import { createKernel } from './kernel';
import type { PluginLifecycleScope } from './lifecycle-scope';
import type { FacetEntry } from './plugin-facet';

type ExampleContext = PluginLifecycleScope;

function exampleKernel() {
  return createKernel<ExampleContext>({ createContext: (scope) => scope, onEffectFailure: () => undefined });
}

function pause(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 5));
}

describe('kernel stop', () => {
  it('disposes scopes in reverse manifest order and callbacks in reverse registration order', async () => {
    const log: string[] = [];
    const facet = (id: string): FacetEntry<ExampleContext> => ({
      id,
      facet: (scope) => {
        scope.own(() => void log.push(`${id} own 1`));
        scope.onDispose(() => void log.push(`${id} onDispose 2`));
        scope.own(() => void log.push(`${id} own 3`));
      },
    });
    const kernel = exampleKernel();
    await kernel.start([facet('tools'), facet('chat')]);
    const report = await kernel.stop();
    expect(report.failures).toEqual([]);
    expect(log).toEqual([
      'chat own 3',
      'chat onDispose 2',
      'chat own 1',
      'tools own 3',
      'tools onDispose 2',
      'tools own 1',
    ]);
  });

  it('finishes a slow async disposal before starting the next', async () => {
    const log: string[] = [];
    const kernel = exampleKernel();
    await kernel.start([
      { id: 'first', facet: (scope) => scope.own(() => void log.push('first disposed')) },
      {
        id: 'second',
        facet: (scope) =>
          scope.own(async () => {
            await pause();
            log.push('second disposed');
          }),
      },
    ]);
    await kernel.stop();
    expect(log).toEqual(['second disposed', 'first disposed']);
  });

  it('records a throwing disposal with its plugin and still runs the others', async () => {
    const log: string[] = [];
    const kernel = exampleKernel();
    await kernel.start([
      { id: 'a', facet: (scope) => scope.own(() => void log.push('a disposed')) },
      {
        id: 'b',
        facet: (scope) => {
          scope.own(() => void log.push('b first disposed'));
          scope.own(() => Promise.reject(new Error('watcher would not close')));
        },
      },
    ]);
    const report = await kernel.stop();
    expect(report.failures).toEqual([{ pluginId: 'b', message: 'watcher would not close' }]);
    expect(log).toEqual(['b first disposed', 'a disposed']);
  });

  it('is idempotent: a second stop disposes nothing again and returns the same report', async () => {
    let disposals = 0;
    const kernel = exampleKernel();
    await kernel.start([
      {
        id: 'a',
        facet: (scope) =>
          scope.own(() => {
            disposals += 1;
            throw new Error('once');
          }),
      },
    ]);
    const first = await kernel.stop();
    const second = await kernel.stop();
    expect(disposals).toBe(1);
    expect(second).toBe(first);
  });

  it('shares one run between concurrent stops', async () => {
    let disposals = 0;
    const kernel = exampleKernel();
    await kernel.start([{ id: 'a', facet: (scope) => scope.own(async () => void (await pause(), (disposals += 1))) }]);
    const [first, second] = await Promise.all([kernel.stop(), kernel.stop()]);
    expect(disposals).toBe(1);
    expect(second).toBe(first);
  });

  it('returns an empty report when stopped before start', async () => {
    expect(await exampleKernel().stop()).toEqual({ failures: [] });
  });

  it('stops a start in progress after the running facet and disposes what it created', async () => {
    const log: string[] = [];
    const kernel = exampleKernel();
    let stopping: Promise<unknown> = Promise.resolve();
    const started = kernel.start([
      {
        id: 'a',
        facet: (scope) => {
          scope.own(() => void log.push('a disposed'));
          stopping = kernel.stop();
        },
      },
      { id: 'b', facet: () => void log.push('b setup') },
    ]);
    expect((await started)._unsafeUnwrapErr().code).toBe('stopped');
    await stopping;
    expect(log).toEqual(['a disposed']);
  });
});
