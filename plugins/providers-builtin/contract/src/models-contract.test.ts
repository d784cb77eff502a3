import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Context } from '@pi/context';
import {
  Models,
  THINKING_LEVELS,
  modelsStateSchema,
  type ModelRef,
  type ModelsService,
  type ModelsState,
} from './index';

describe('the models contract', () => {
  it('is a plugin whose package metadata names its session facet and its TUI facet', () => {
    const metadata = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).pi;
    expect(metadata).toEqual({
      apiVersion: '2.0',
      description: expect.any(String),
      facets: { session: '@pi/providers-builtin-session', tui: '@pi/providers-builtin-tui' },
    });
  });

  it('exposes the spec members and one state cell', () => {
    expect(Models.id).toBe('models');
    expect(Object.keys(Models.exposure.methods).sort()).toEqual(['cycleThinking', 'refresh', 'select']);
    expect(Object.keys(Models.exposure.state)).toEqual(['state']);
  });

  it('types each method as the spec does, with the Context last', () => {
    expectTypeOf<ModelsService['select']>().toEqualTypeOf<(model: ModelRef, context: Context) => Promise<void>>();
    expectTypeOf<ModelsService['refresh']>().toEqualTypeOf<(context: Context) => Promise<void>>();
    expectTypeOf<ModelsService['cycleThinking']>().toEqualTypeOf<(context: Context) => Promise<void>>();
  });

  it('cycles off, low, high', () => {
    expect(THINKING_LEVELS).toEqual(['off', 'low', 'high']);
  });

  it('accepts every refresh status and rejects a warning without errors', () => {
    const base: ModelsState = {
      catalog: {
        revision: 1,
        availableModels: [{ provider: 'offline', modelId: 'echo', name: 'Echo', reasoning: false }],
      },
      configuration: { model: { provider: 'offline', modelId: 'echo' }, thinkingLevel: 'off' },
      refresh: { status: 'idle' },
    };
    for (const refresh of [
      { status: 'refreshing' },
      { status: 'done' },
      { status: 'warning', errors: { 'models.json': 'broken' } },
    ]) {
      expect(modelsStateSchema.safeParse({ ...base, refresh }).success).toBe(true);
    }
    expect(modelsStateSchema.safeParse({ ...base, refresh: { status: 'warning' } }).success).toBe(false);
    expect(
      modelsStateSchema.safeParse({ ...base, configuration: { model: null, thinkingLevel: 'medium' } }).success,
    ).toBe(false);
  });
});
