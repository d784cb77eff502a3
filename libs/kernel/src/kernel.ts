import { err, ok, type Result } from 'neverthrow';
import { errorMessage } from './error-message';
import type { DisposalFailure, EffectFailure, KernelPhase, KernelStartError, KernelStopReport } from './kernel-errors';
import { createLifecycleScope, type LifecycleScopeHandle, type PluginLifecycleScope } from './lifecycle-scope';
import type { FacetEntry } from './plugin-facet';

export interface KernelOptions<C> {
  /** The host builds its own context around the kernel's scope; the kernel never sees what is inside. */
  createContext(scope: PluginLifecycleScope, entry: { readonly id: string }): C;
  /** Where a failing effect is reported (the host's diagnostics): effects run beside the kernel, not in its steps. */
  onEffectFailure(failure: EffectFailure): void;
}

export interface Kernel<C> {
  /** Sets up every facet in order, then activates them; on failure disposes what was created. Single use. */
  start(facets: ReadonlyArray<FacetEntry<C>>): Promise<Result<void, KernelStartError>>;
  /** Disposes every scope in reverse order; idempotent, and concurrent calls share one run. */
  stop(): Promise<KernelStopReport>;
}

type KernelState = 'idle' | 'starting' | 'started' | 'stopped';

function findDuplicateId(facets: ReadonlyArray<{ readonly id: string }>): string | undefined {
  const seen = new Set<string>();
  return facets.find(({ id }) => (seen.has(id) ? true : (seen.add(id), false)))?.id;
}

async function disposeInReverse(handles: LifecycleScopeHandle[]): Promise<DisposalFailure[]> {
  const failures: DisposalFailure[] = [];
  for (const handle of [...handles].reverse()) failures.push(...(await handle.dispose()));
  return failures;
}

export function createKernel<C>(options: KernelOptions<C>): Kernel<C> {
  let state: KernelState = 'idle';
  let stopRequested = false;
  let starting: Promise<unknown> = Promise.resolve();
  let stopping: Promise<KernelStopReport> | undefined;
  const handles: LifecycleScopeHandle[] = [];

  async function rollback(
    pluginId: string,
    phase: KernelPhase,
    cause: unknown,
  ): Promise<Result<void, KernelStartError>> {
    const disposalFailures = await disposeInReverse(handles.splice(0));
    const message = `plugin "${pluginId}" failed during ${phase}: ${errorMessage(cause)}`;
    return err({ code: 'plugin_failed', pluginId, phase, message, cause, disposalFailures });
  }

  function stoppedDuringStart(): Result<void, KernelStartError> {
    return err({ code: 'stopped', message: 'the kernel was stopped while it was starting' });
  }

  async function run(facets: ReadonlyArray<FacetEntry<C>>): Promise<Result<void, KernelStartError>> {
    for (const { id, facet } of facets) {
      if (stopRequested) return stoppedDuringStart();
      const handle = createLifecycleScope(id, options.onEffectFailure);
      handles.push(handle);
      try {
        await facet(options.createContext(handle.scope, { id }));
      } catch (thrown) {
        return rollback(id, 'setup', thrown);
      }
    }
    for (const handle of handles) {
      if (stopRequested) return stoppedDuringStart();
      try {
        await handle.activate();
      } catch (thrown) {
        return rollback(handle.pluginId, 'activate', thrown);
      }
    }
    return ok(undefined);
  }

  async function start(facets: ReadonlyArray<FacetEntry<C>>): Promise<Result<void, KernelStartError>> {
    if (state === 'stopped')
      return err({ code: 'stopped', message: 'the kernel was stopped; create a new kernel to start again' });
    if (state !== 'idle')
      return err({ code: 'already_started', message: 'the kernel was already started; it is single use' });
    const duplicate = findDuplicateId(facets);
    if (duplicate !== undefined)
      return err({ code: 'duplicate_plugin', message: `plugin "${duplicate}" appears twice` });
    state = 'starting';
    const result = run(facets);
    starting = result;
    const settled = await result;
    if (state === 'starting') state = 'started';
    return settled;
  }

  async function stopOnce(): Promise<KernelStopReport> {
    stopRequested = true;
    // A stop during start waits for the running facet, which then sees stopRequested and goes no further.
    await starting;
    state = 'stopped';
    return { failures: await disposeInReverse(handles.splice(0)) };
  }

  return {
    start,
    stop(): Promise<KernelStopReport> {
      stopping ??= stopOnce();
      return stopping;
    },
  };
}
