import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Credentials } from '@pi/accounts';
import { BACKGROUND_CONTEXT, type Context } from '@pi/context';
import { RunSettingsService, type CodingAgentSessionPluginContext, type SessionFacet } from '@pi/plugin-api';
import {
  createOfflineProvider,
  loadModelsConfig,
  watchModelsConfig,
  yieldToLoop,
  type ConfigError,
  type ModelsConfig,
  type YieldToLoop,
} from '@pi/model-providers';
import { Models, type ModelsState } from '@pi/providers-builtin';
import { Settings } from '@pi/settings';
import type { Result } from 'neverthrow';
import { configErrorText } from './config-error-text';
import { ConfiguredProviders } from './configured-providers';
import { catalogFrom } from './model-catalog';
import { modelDefaults } from './model-defaults';
import { INITIAL_MODELS_STATE, ModelsAuthority } from './models-authority';
import { MODELS_FILE_ERROR_KEY, refreshModels } from './models-refresh';

export const MODELS_FILE_NAME = 'models.json';

export interface ProvidersBuiltinOptions {
  /** Where models.json `apiKeyEnv` names are looked up; process.env by default. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * Replaces how models.json providers send their turns (their built-in client on node:http by default) and what
   * their `/refresh` probes use (the global fetch by default): tests inject one.
   */
  readonly fetch?: typeof fetch;
  /** How long `refresh` waits for one server's answer before reporting it; 10 s by default. */
  readonly probeTimeoutMs?: number;
  /** Quiet time after an edit of models.json before it is reloaded; 50 ms by default. */
  readonly watchDebounceMs?: number;
  /**
   * Awaited between the steps of loading models.json and publishing its catalogue, so other calls are served while
   * a large catalogue loads; a turn of the event loop by default (tests count the steps and call in between).
   */
  readonly yieldToLoop?: YieldToLoop;
}

/**
 * The session facet of @pi/providers-builtin, with its I/O injectable for tests. It contributes the offline
 * provider and, as a later layer, the providers of `<configDir>/models.json` (same id: models.json wins);
 * keeps the Models catalogue in step with every rebuild of the host's providers registry; provides Models
 * remotely and RunSettingsService locally, so the harness runs the selected model and thinking level.
 */
export function createProvidersBuiltinFacet(options: ProvidersBuiltinOptions = {}): SessionFacet {
  return (context) => setUpProviders(context, options);
}

function setUpProviders(context: CodingAgentSessionPluginContext, options: ProvidersBuiltinOptions): void {
  const modelsFile = join(context.paths.configDir, MODELS_FILE_NAME);
  const credentials = () => context.tryUse(Credentials);
  const configured = new ConfiguredProviders({
    env: options.env ?? process.env,
    credentials,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  const authority = new ModelsAuthority(context.remoteState<ModelsState>(INITIAL_MODELS_STATE));
  const offline = createOfflineProvider();
  const pause = options.yieldToLoop ?? yieldToLoop;

  // Rebuilds are coalesced into one per microtask by the host; the catalogue follows each one under the
  // context of the operation that asked for it (background for boot and file changes).
  let rebuildContext: Context = BACKGROUND_CONTEXT;
  const rebuild = async (requester: Context) => {
    rebuildContext = requester;
    context.providers.rebuild();
    await new Promise<void>((resolve) => queueMicrotask(resolve));
    rebuildContext = BACKGROUND_CONTEXT;
  };
  context.providers.onRebuild((providers) =>
    authority.catalogChanged(
      catalogFrom(providers, (id) => configured.keyMissing(id)),
      rebuildContext,
    ),
  );
  context.providers.add((draft) => draft.set(offline.id, offline));
  context.providers.add((draft) => {
    for (const provider of configured.providers()) draft.set(provider.id, provider);
  });

  context.provide(Models, {
    state: authority.state,
    async select(model, callContext) {
      callContext.abortSignal?.throwIfAborted();
      authority.select(model, callContext);
    },
    async cycleThinking(callContext) {
      callContext.abortSignal?.throwIfAborted();
      authority.cycleThinking(callContext);
    },
    refresh: (callContext) =>
      refreshModels(
        {
          modelsFile,
          configured,
          authority,
          rebuild,
          fetch: options.fetch ?? fetch,
          probeTimeoutMs: options.probeTimeoutMs ?? 10_000,
          yieldToLoop: pause,
        },
        callContext,
      ),
  });
  context.provide(RunSettingsService, { current: () => authority.runSettings() });

  // A warning is reported at once (the boot path relies on it before the first client); a new catalogue is built,
  // published and reported in steps of its own.
  const reloaded = async (result: Result<ModelsConfig, ConfigError>) => {
    if (result.isErr()) {
      authority.reportRefresh(
        { status: 'warning', errors: { [MODELS_FILE_ERROR_KEY]: configErrorText(result.error) } },
        BACKGROUND_CONTEXT,
      );
      return;
    }
    if (configured.accept(result.value)) {
      await pause();
      await rebuild(BACKGROUND_CONTEXT);
      await pause();
    }
    authority.reportRefresh({ status: 'done' }, BACKGROUND_CONTEXT);
  };
  const loadOptions = { yieldToLoop: pause };

  context.onActivate(async () => {
    authority.useDefaults(modelDefaults(context.tryUse(Settings)));
    await configured.refreshStoredKeys();
    const loaded = await loadModelsConfig(modelsFile, loadOptions);
    if (loaded.isOk()) configured.accept(loaded.value);
    else void reloaded(loaded);
    const store = credentials();
    if (store !== undefined) {
      context.own(
        store.onChange(
          () =>
            void configured.refreshStoredKeys().then((changed) => (changed ? rebuild(BACKGROUND_CONTEXT) : undefined)),
        ),
      );
    }
    // The watch is on the directory (editors replace files by renaming), so the directory must exist.
    await mkdir(context.paths.configDir, { recursive: true, mode: 0o700 });
  });
  // Starts once the activation above made the directory, before the next plugin activates.
  context.effect((signal) =>
    watchModelsConfig(modelsFile, (result) => void reloaded(result), signal, {
      ...loadOptions,
      debounceMs: options.watchDebounceMs ?? 50,
    }),
  );
}
