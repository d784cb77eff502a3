import { describe, expect, it, vi } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import type { ModelSpec, ModelsState } from '@pi/providers-builtin';
import { createRemoteState, RemoteError } from '@pi/remote';
import { INITIAL_MODELS_STATE, ModelsAuthority } from './models-authority';

const echo: ModelSpec = { provider: 'offline', modelId: 'echo', name: 'Echo', reasoning: false };
const thinker: ModelSpec = { provider: 'offline', modelId: 'thinker', name: 'Thinker', reasoning: true };
const remote: ModelSpec = { provider: 'router', modelId: 'big', name: 'Big', reasoning: true };

function authority() {
  return new ModelsAuthority(createRemoteState<ModelsState>(INITIAL_MODELS_STATE));
}

describe('the models authority', () => {
  it('selects the offline provider first model when no default is set', () => {
    const models = authority();
    models.catalogChanged([remote, echo, thinker], BACKGROUND_CONTEXT);
    expect(models.state.value.configuration).toEqual({
      model: { provider: 'offline', modelId: 'echo' },
      thinkingLevel: 'off',
    });
    expect(models.state.value.catalog).toEqual({ revision: 1, availableModels: [remote, echo, thinker] });
  });

  it('selects the settings default when the catalogue offers it', () => {
    const models = authority();
    models.useDefaults({ model: { provider: 'router', modelId: 'big' }, thinkingLevel: 'low' });
    models.catalogChanged([echo, remote], BACKGROUND_CONTEXT);
    expect(models.state.value.configuration).toEqual({
      model: { provider: 'router', modelId: 'big' },
      thinkingLevel: 'low',
    });
  });

  it('counts a revision only when the catalogue changes', () => {
    const models = authority();
    models.catalogChanged([echo], BACKGROUND_CONTEXT);
    models.catalogChanged([echo], BACKGROUND_CONTEXT);
    models.catalogChanged([echo, thinker], BACKGROUND_CONTEXT);
    expect(models.state.value.catalog.revision).toBe(2);
  });

  it('rejects a model outside the catalogue with unknown_model', () => {
    const models = authority();
    models.catalogChanged([echo], BACKGROUND_CONTEXT);
    expect(() => models.select({ provider: 'offline', modelId: 'nope' }, BACKGROUND_CONTEXT)).toThrow(RemoteError);
    expect(() => models.select({ provider: 'offline', modelId: 'nope' }, BACKGROUND_CONTEXT)).toThrow(
      expect.objectContaining({ code: 'unknown_model' }),
    );
  });

  it('forces off for a model without reasoning and restores the preference for one with it', () => {
    const models = authority();
    models.catalogChanged([echo, thinker], BACKGROUND_CONTEXT);
    models.cycleThinking(BACKGROUND_CONTEXT);
    expect(models.state.value.configuration.thinkingLevel).toBe('off');
    models.select({ provider: 'offline', modelId: 'thinker' }, BACKGROUND_CONTEXT);
    expect(models.state.value.configuration.thinkingLevel).toBe('high');
    models.cycleThinking(BACKGROUND_CONTEXT);
    models.cycleThinking(BACKGROUND_CONTEXT);
    expect(models.state.value.configuration.thinkingLevel).toBe('low');
    models.select({ provider: 'offline', modelId: 'echo' }, BACKGROUND_CONTEXT);
    expect(models.state.value.configuration.thinkingLevel).toBe('off');
    models.select({ provider: 'offline', modelId: 'thinker' }, BACKGROUND_CONTEXT);
    expect(models.state.value.configuration.thinkingLevel).toBe('low');
  });

  it('falls back to the default when the selected model leaves the catalogue', () => {
    const models = authority();
    models.catalogChanged([echo, remote], BACKGROUND_CONTEXT);
    models.select({ provider: 'router', modelId: 'big' }, BACKGROUND_CONTEXT);
    models.catalogChanged([echo], BACKGROUND_CONTEXT);
    expect(models.state.value.configuration.model).toEqual({ provider: 'offline', modelId: 'echo' });
  });

  it('hands the harness a copy of the selection', () => {
    const models = authority();
    models.catalogChanged([thinker], BACKGROUND_CONTEXT);
    expect(models.runSettings()).toEqual({ model: { provider: 'offline', modelId: 'thinker' }, thinkingLevel: 'high' });
  });

  it('leaves the state alone when a rebuild or a status changes nothing (its own check would copy the catalogue)', () => {
    const models = authority();
    models.catalogChanged([echo, thinker], BACKGROUND_CONTEXT);
    models.refresh.report({ status: 'done' }, BACKGROUND_CONTEXT);
    const set = vi.spyOn(models.state, 'set');
    models.catalogChanged([echo, thinker], BACKGROUND_CONTEXT);
    models.refresh.report({ status: 'done' }, BACKGROUND_CONTEXT);
    models.select({ provider: 'offline', modelId: 'echo' }, BACKGROUND_CONTEXT);
    expect(set).not.toHaveBeenCalled();
    models.refresh.report({ status: 'warning', errors: { 'models.json': 'broken' } }, BACKGROUND_CONTEXT);
    expect(set).toHaveBeenCalledTimes(1);
  });
});
