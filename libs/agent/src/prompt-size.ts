import type { ModelProvider, PromptTooLarge, RunSettings, UserMessage } from '@pi/agent-contract';
import { contextWindowOf } from './compaction';
import { resolveRunModel } from './run-model';
import { estimateMessagesTokens } from './token-estimate';

/**
 * Refuses messages that alone are estimated at more tokens than the selected model's window: no request could carry
 * them, and automatic compaction would fold them into its summary unseen. Null when they fit, or when there is no
 * model or its window is unknown (the run then fails or goes out as before).
 */
export function promptTooLarge(
  messages: readonly UserMessage[],
  settings: RunSettings,
  providers: ReadonlyMap<string, ModelProvider>,
): PromptTooLarge | null {
  const model = resolveRunModel(settings, providers);
  if (model.isErr()) return null;
  const { provider, modelId } = model.value;
  const contextWindow = contextWindowOf(provider, modelId);
  if (contextWindow === undefined) return null;
  const tokens = estimateMessagesTokens(messages);
  if (tokens <= contextWindow) return null;
  const count = (value: number) => value.toLocaleString('en-US');
  return {
    code: 'too_large',
    tokens,
    contextWindow,
    // The numbers first: a one-line notice may be cut at the terminal's width.
    message:
      `The prompt is ~${count(tokens)} tokens; the context window of ${provider.id}/${modelId} holds ` +
      `${count(contextWindow)}: shorten it, or pick a model with a larger window`,
  };
}
