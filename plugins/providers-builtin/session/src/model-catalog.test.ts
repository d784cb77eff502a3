import { describe, expect, it } from 'vitest';
import type { ModelProvider, ModelSpec } from '@pi/agent';
import { catalogFrom } from './model-catalog';

function provider(id: string, models: Array<Omit<ModelSpec, 'provider'>>): ModelProvider {
  return {
    id,
    name: id,
    models: () => models.map((model) => ({ ...model, provider: id })),
    stream: async function* () {
      // Never asked to answer.
    },
  };
}

describe('the catalogue clients see', () => {
  it("carries each model's window and image input, and marks the models of a provider without a key", () => {
    const providers = new Map([
      [
        'vision',
        provider('vision', [
          { modelId: 'eye', name: 'Eye', reasoning: false, contextWindow: 1000, images: true },
          { modelId: 'blind', name: 'Blind', reasoning: true, images: false },
        ]),
      ],
    ]);
    expect(catalogFrom(providers, (id) => id === 'vision')).toEqual([
      {
        provider: 'vision',
        modelId: 'eye',
        name: 'Eye',
        reasoning: false,
        keyMissing: true,
        contextWindow: 1000,
        images: true,
      },
      { provider: 'vision', modelId: 'blind', name: 'Blind', reasoning: true, keyMissing: true },
    ]);
  });
});
