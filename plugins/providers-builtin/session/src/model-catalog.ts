import type { ModelProvider } from '@pi/agent';
import type { ModelRef, ModelSpec } from '@pi/providers-builtin';

/**
 * The catalogue as presentations see it: every model of every provider in the host's registry, in registry
 * order, as plain JSON, marked when its provider has no key. The provider half of each ref is the registry id,
 * whatever the provider claims.
 */
export function catalogFrom(
  providers: ReadonlyMap<string, ModelProvider>,
  keyMissing: (providerId: string) => boolean = () => false,
): ModelSpec[] {
  const models: ModelSpec[] = [];
  for (const [id, provider] of providers) {
    const missing = keyMissing(id);
    for (const model of provider.models()) {
      models.push({
        provider: id,
        modelId: model.modelId,
        name: model.name,
        reasoning: model.reasoning,
        ...(missing ? { keyMissing: true as const } : {}),
        ...(model.contextWindow === undefined ? {} : { contextWindow: model.contextWindow }),
        ...(model.images === true ? { images: true as const } : {}),
      });
    }
  }
  return models;
}

export function findModel(catalog: readonly ModelSpec[], ref: ModelRef | null): ModelSpec | undefined {
  if (ref === null) return undefined;
  return catalog.find((model) => model.provider === ref.provider && model.modelId === ref.modelId);
}

export function refOf(model: ModelSpec): ModelRef {
  return { provider: model.provider, modelId: model.modelId };
}
