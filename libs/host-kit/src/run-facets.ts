import { err, ok, type Result } from 'neverthrow';
import {
  createKernel,
  type EffectFailure,
  type KernelStartError,
  type KernelStopReport,
  type ManifestEntry,
  type PluginLifecycleScope,
} from '@pi/kernel';

/** A facet that failed (the kernel already rolled back), or a start the kernel refused. */
export interface FacetRunError {
  readonly code: 'plugin_failed' | 'start_refused';
  readonly message: string;
  /** What the failing plugin threw (for `PI_DEBUG`'s stack and causes, see `failureText`); never sent anywhere. */
  readonly cause?: unknown;
}

/** A facet as the kernel runs it: a loaded facet of some host, or a facet of a host's own context type. */
export interface RunnableFacet<C> {
  readonly id: string;
  readonly config: ManifestEntry['config'];
  readonly facet: (context: C) => void | Promise<void>;
}

export interface RunningFacets {
  /** Disposes every facet's scope in reverse manifest order; idempotent. */
  stop(): Promise<KernelStopReport>;
}

/**
 * Runs loaded facets through the kernel: each gets the context the host builds around its scope, all register,
 * then all activate; a failure rolls back what was created, in reverse order, and names the plugin and phase.
 */
export async function runFacets<C>(
  facets: readonly RunnableFacet<C>[],
  createContext: (scope: PluginLifecycleScope, facet: RunnableFacet<C>) => C,
  onEffectFailure: (failure: EffectFailure) => void,
): Promise<Result<RunningFacets, FacetRunError>> {
  const byId = new Map(facets.map((facet) => [facet.id, facet]));
  const kernel = createKernel<C>({
    createContext: (scope, entry) => createContext(scope, byId.get(entry.id) as RunnableFacet<C>),
    onEffectFailure,
  });
  const started = await kernel.start(facets.map((loaded) => ({ id: loaded.id, facet: loaded.facet })));
  if (started.isErr()) return err(startFailure(started.error));
  return ok({ stop: () => kernel.stop() });
}

function startFailure(error: KernelStartError): FacetRunError {
  if (error.code !== 'plugin_failed') return { code: 'start_refused', message: error.message };
  // The kernel's message already names the plugin and the phase; a disposal that failed on the way down is added.
  const disposal = error.disposalFailures
    .map((failure) => `; disposing "${failure.pluginId}" also failed: ${failure.message}`)
    .join('');
  return { code: 'plugin_failed', message: `${error.message}${disposal}`, cause: error.cause };
}
