import { withTelemetryContext, type Context } from '@pi/context';
import { loadModelsConfig, type YieldToLoop } from '@pi/model-providers';
import type { RefreshStatus } from '@pi/providers-builtin';
import { configErrorText } from './config-error-text';
import type { ConfiguredProviders } from './configured-providers';
import type { ModelsAuthority } from './models-authority';
import { probeProvider } from './provider-probe';

export const MODELS_FILE_ERROR_KEY = 'models.json';

export interface RefreshDependencies {
  readonly modelsFile: string;
  readonly configured: ConfiguredProviders;
  readonly authority: ModelsAuthority;
  /** Replays the providers registry and resolves once the catalogue reflects it. */
  readonly rebuild: (context: Context) => Promise<void>;
  readonly fetch: typeof fetch;
  readonly probeTimeoutMs: number;
  /** Awaited between the steps of the load and of applying it, so other calls are served meanwhile. */
  readonly yieldToLoop: YieldToLoop;
}

/**
 * One refresh call: re-read models.json, probe every configured server, then apply. Nothing is applied until
 * every step is done, and the call's own signal is checked between steps, so an aborted refresh changes
 * nothing but the status, which goes back to what it was (see RefreshTracker). A broken file keeps the last
 * good config, and its problem joins the probe errors in a `warning`.
 */
export function refreshModels(deps: RefreshDependencies, context: Context): Promise<void> {
  return context.telemetryContext.startSpan({ name: 'plugin.models.refresh' }, async (span) => {
    const refreshContext = withTelemetryContext(span, context);
    const signal = refreshContext.abortSignal;
    signal?.throwIfAborted();
    deps.authority.refresh.started(refreshContext);
    try {
      const errors: Record<string, string> = {};
      const loaded = await loadModelsConfig(deps.modelsFile, { yieldToLoop: deps.yieldToLoop });
      signal?.throwIfAborted();
      if (loaded.isErr()) errors[MODELS_FILE_ERROR_KEY] = configErrorText(loaded.error);
      const config = loaded.isOk() ? loaded.value : deps.configured.config;
      await deps.configured.refreshStoredKeys();
      const probes = await Promise.all(
        config.providers.map(async (provider) => {
          const key = await deps.configured.apiKeyOf(provider);
          const problem = await probeProvider(provider, key, deps.configured.needsKey(provider), {
            fetch: deps.fetch,
            signal,
            timeoutMs: deps.probeTimeoutMs,
          });
          return [provider.id, problem] as const;
        }),
      );
      signal?.throwIfAborted();
      for (const [id, problem] of probes) if (problem !== null) errors[id] = problem;
      if (loaded.isOk() && deps.configured.accept(loaded.value)) await deps.yieldToLoop();
      await deps.rebuild(refreshContext);
      // The catalogue was published in the step above; the status, another copy of the whole state, in its own.
      await deps.yieldToLoop();
      const outcome: RefreshStatus =
        Object.keys(errors).length === 0 ? { status: 'done' } : { status: 'warning', errors };
      span.setAttribute('models.refresh.status', outcome.status);
      deps.authority.refresh.finished(outcome, refreshContext);
    } catch (error) {
      deps.authority.refresh.abandoned(refreshContext);
      throw error;
    }
  });
}
