import type { RunSettings } from '@pi/agent';
import type { Context } from '@pi/context';
import { OFFLINE_PROVIDER_ID } from '@pi/model-providers';
import {
  UNKNOWN_MODEL,
  type ModelRef,
  type ModelSpec,
  type ModelsState,
  type RefreshStatus,
  type ThinkingLevel,
} from '@pi/providers-builtin';
import { RemoteError, jsonEquals, quoteForError, type JsonValue, type MutableRemoteState } from '@pi/remote';
import { findModel, refOf } from './model-catalog';
import { RefreshTracker } from './refresh-tracker';
import { effectiveThinkingLevel, nextThinkingLevel } from './thinking-level';

export interface ModelDefaults {
  /** The settings' default model; used while it is in the catalogue. */
  readonly model: ModelRef | null;
  readonly thinkingLevel: ThinkingLevel;
}

export const INITIAL_MODELS_STATE: ModelsState = {
  catalog: { revision: 0, availableModels: [] },
  configuration: { model: null, thinkingLevel: 'high' },
  refresh: { status: 'idle' },
};

/**
 * The one writer of ModelsState. It keeps the user's preferred thinking level apart from the effective one,
 * so choosing a model without reasoning (forced `off`) and then one with reasoning restores the preference.
 * When the catalogue loses the selected model, the selection falls back to the default.
 */
export class ModelsAuthority {
  readonly state: MutableRemoteState<ModelsState>;
  readonly refresh: RefreshTracker;
  #defaults: ModelDefaults = { model: null, thinkingLevel: INITIAL_MODELS_STATE.configuration.thinkingLevel };
  #preferred: ThinkingLevel = this.#defaults.thinkingLevel;

  constructor(state: MutableRemoteState<ModelsState>) {
    this.state = state;
    this.refresh = new RefreshTracker((refresh, context) => this.#set({ ...this.state.value, refresh }, context));
  }

  /** Before the first catalogue: what a fresh session selects. */
  useDefaults(defaults: ModelDefaults): void {
    this.#defaults = defaults;
    this.#preferred = defaults.thinkingLevel;
  }

  catalogChanged(models: readonly ModelSpec[], context: Context): void {
    const current = this.state.value;
    const changed = !jsonEquals(
      models as unknown as JsonValue,
      current.catalog.availableModels as unknown as JsonValue,
    );
    const catalog = changed
      ? { revision: current.catalog.revision + 1, availableModels: [...models] }
      : current.catalog;
    const kept = findModel(models, current.configuration.model);
    const model = kept ?? this.#defaultModel(models);
    this.#set({ ...current, catalog, configuration: this.#configuration(model) }, context);
  }

  select(ref: ModelRef, context: Context): void {
    const model = findModel(this.state.value.catalog.availableModels, ref);
    if (model === undefined)
      throw new RemoteError(
        UNKNOWN_MODEL,
        `No model ${quoteForError(`${ref.provider}/${ref.modelId}`)} in the catalogue`,
      );
    this.#set({ ...this.state.value, configuration: this.#configuration(model) }, context);
  }

  cycleThinking(context: Context): void {
    const model = findModel(this.state.value.catalog.availableModels, this.state.value.configuration.model);
    if (model?.reasoning === true) this.#preferred = nextThinkingLevel(this.state.value.configuration.thinkingLevel);
    this.#set({ ...this.state.value, configuration: this.#configuration(model) }, context);
  }

  runSettings(): RunSettings {
    const { model, thinkingLevel } = this.state.value.configuration;
    return { model: model === null ? null : { ...model }, thinkingLevel };
  }

  reportRefresh(outcome: RefreshStatus, context: Context): void {
    this.refresh.report(outcome, context);
  }

  /**
   * Sets the state unless nothing would change. The state's own check for that copies and compares the whole
   * catalogue, so a rebuild or a status that changes nothing would cost as much as a new catalogue.
   */
  #set(next: ModelsState, context: Context): void {
    const current = this.state.value;
    const same =
      next.catalog === current.catalog &&
      jsonEquals(next.configuration, current.configuration) &&
      jsonEquals(next.refresh, current.refresh);
    if (!same) this.state.set(next, context);
  }

  #configuration(model: ModelSpec | undefined): ModelsState['configuration'] {
    return {
      model: model === undefined ? null : refOf(model),
      thinkingLevel: effectiveThinkingLevel(model, this.#preferred),
    };
  }

  /** The settings' default if offered, else the offline provider's first model (so pi runs out of the box), else the first. */
  #defaultModel(models: readonly ModelSpec[]): ModelSpec | undefined {
    return (
      findModel(models, this.#defaults.model) ??
      models.find((model) => model.provider === OFFLINE_PROVIDER_ID) ??
      models[0]
    );
  }
}
