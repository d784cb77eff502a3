import type { Context } from '@pi/plugin-api';
import {
  THINKING_LEVELS,
  UNKNOWN_MODEL,
  type ModelRef,
  type ModelSpec,
  type ModelsService,
  type ModelsState,
  type RefreshStatus,
} from '@pi/providers-builtin';
import { RemoteError, createRemoteState, type AuthoritativeState } from '@pi/remote';

export const ECHO: ModelSpec = { provider: 'offline', modelId: 'echo', name: 'Offline echo', reasoning: false };
export const THINKER: ModelSpec = { provider: 'offline', modelId: 'thinker', name: 'Offline thinker', reasoning: true };

/** A stand-in for the session's Models (the real one is @pi/providers-builtin-session, which a TUI may not import). */
export interface StandInModels extends ModelsService {
  readonly state: AuthoritativeState<ModelsState>;
  /** What the next `refresh` ends with. */
  refreshOutcome: RefreshStatus;
  /** While set, `refresh` waits for it after reporting `refreshing`. */
  refreshGate: Promise<void> | undefined;
  /** When set, the catalogue a `refresh` ends with. */
  refreshedModels: ModelSpec[] | undefined;
  readonly selected: ModelRef[];
}

export function standInModels(models: ModelSpec[] = [ECHO, THINKER], start: ModelRef = ECHO): StandInModels {
  const state = createRemoteState<ModelsState>({
    catalog: { revision: 1, availableModels: models },
    configuration: { model: start, thinkingLevel: 'off' },
    refresh: { status: 'idle' },
  });
  let preferred: ModelsState['configuration']['thinkingLevel'] = 'high';
  const find = (ref: ModelRef | null) =>
    state.value.catalog.availableModels.find(
      (model) => ref !== null && model.provider === ref.provider && model.modelId === ref.modelId,
    );
  const configure = (model: ModelSpec, context: Context) =>
    state.set(
      {
        ...state.value,
        configuration: {
          model: { provider: model.provider, modelId: model.modelId },
          thinkingLevel: model.reasoning ? preferred : 'off',
        },
      },
      context,
    );
  const standIn: StandInModels = {
    state,
    refreshOutcome: { status: 'done' },
    refreshGate: undefined,
    refreshedModels: undefined,
    selected: [],
    async select(ref, context) {
      const model = find(ref);
      if (model === undefined) {
        throw new RemoteError(UNKNOWN_MODEL, `No model "${ref.provider}/${ref.modelId}" in the catalogue`);
      }
      standIn.selected.push(ref);
      configure(model, context);
    },
    async cycleThinking(context) {
      const model = find(state.value.configuration.model);
      if (model === undefined) return;
      if (model.reasoning) {
        const next = THINKING_LEVELS[(THINKING_LEVELS.indexOf(state.value.configuration.thinkingLevel) + 1) % 3];
        preferred = next ?? 'off';
      }
      configure(model, context);
    },
    async refresh(context) {
      state.set({ ...state.value, refresh: { status: 'refreshing' } }, context);
      await standIn.refreshGate;
      const catalog =
        standIn.refreshedModels === undefined
          ? state.value.catalog
          : { revision: state.value.catalog.revision + 1, availableModels: standIn.refreshedModels };
      state.set({ ...state.value, catalog, refresh: standIn.refreshOutcome }, context);
    },
  };
  return standIn;
}
