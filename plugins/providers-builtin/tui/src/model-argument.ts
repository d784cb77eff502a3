import type { ModelRef, ModelSpec } from '@pi/providers-builtin';
import { printable } from './model-text';

/** What `/model <argument>` names: a model reference for the session to check, or why it names none. */
export type ModelArgument = { readonly model: ModelRef } | { readonly problem: string };

/**
 * `provider/modelId` is sent as it is (the session decides whether it exists; a model id may itself contain
 * `/`, a provider id may not). A bare model id is looked up in the replicated catalogue and must name exactly
 * one model.
 */
export function parseModelArgument(argument: string, catalog: readonly ModelSpec[]): ModelArgument {
  const text = argument.trim();
  const slash = text.indexOf('/');
  if (slash > 0 && slash < text.length - 1) {
    return { model: { provider: text.slice(0, slash), modelId: text.slice(slash + 1) } };
  }
  const matches = catalog.filter((model) => model.modelId === text);
  const [only] = matches;
  if (matches.length === 1 && only !== undefined) return { model: { provider: only.provider, modelId: only.modelId } };
  const named = `"${printable(text)}"`;
  return matches.length === 0
    ? { problem: `No model ${named} — use /model provider/model, or /model alone to pick one` }
    : { problem: `More than one provider offers ${named} — use /model provider/model` };
}
