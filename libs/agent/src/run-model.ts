import { err, ok, type Result } from 'neverthrow';
import { providerErrorText } from './error-text';
import type { RunSettings } from '@pi/agent-contract';
import type { ModelProvider } from './provider';

export interface RunModel {
  provider: ModelProvider;
  modelId: string;
}

/** The provider and model a run will use, from the settings snapshot taken at acceptance. */
export function resolveRunModel(
  settings: RunSettings,
  providers: ReadonlyMap<string, ModelProvider>,
): Result<RunModel, { code: 'no_model'; message: string }> {
  if (settings.model === null) return err({ code: 'no_model', message: 'No model is selected' });
  const { provider: providerId, modelId } = settings.model;
  const provider = providers.get(providerId);
  if (provider === undefined) {
    return err({ code: 'no_model', message: `Provider "${providerId}" is not available` });
  }
  let offered: boolean;
  try {
    offered = provider.models().some((model) => model.modelId === modelId);
  } catch (error) {
    // A provider that cannot list its models offers none; its words go to the caller redacted like any other.
    return err({
      code: 'no_model',
      message: `Provider "${providerId}" cannot list its models: ${providerErrorText(error)}`,
    });
  }
  if (!offered) {
    return err({ code: 'no_model', message: `Provider "${providerId}" has no model "${modelId}"` });
  }
  return ok({ provider, modelId });
}
