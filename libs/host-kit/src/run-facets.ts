import { err, ok, type Result } from 'neverthrow';
import { createKernel, type KernelStartError, type KernelStopReport, type PluginLifecycleScope } from '@pi/kernel';
import type { HostContexts, HostName } from '@pi/plugin-api';
import type { LoadedFacet } from './facet-loader';

/** A facet that failed (the kernel already rolled back), or a start the kernel refused. */
export interface FacetRunError {
  readonly code: 'plugin_failed' | 'start_refused';
  readonly message: string;
}

export interface RunningFacets {
  /** Disposes every facet's scope in reverse manifest order; idempotent. */
  stop(): Promise<KernelStopReport>;
}

/**
 * Runs loaded facets through the kernel: each gets the context the host builds around its scope, all register,
 * then all activate; a failure rolls back what was created, in reverse order, and names the plugin and phase.
 */
export async function runFacets<H extends HostName>(
  facets: readonly LoadedFacet<H>[],
  createContext: (scope: PluginLifecycleScope, facet: LoadedFacet<H>) => HostContexts[H],
): Promise<Result<RunningFacets, FacetRunError>> {
  const byId = new Map(facets.map((facet) => [facet.id, facet]));
  const kernel = createKernel<HostContexts[H]>({
    createContext: (scope, entry) => createContext(scope, byId.get(entry.id) as LoadedFacet<H>),
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
  return { code: 'plugin_failed', message: `${error.message}${disposal}` };
}
