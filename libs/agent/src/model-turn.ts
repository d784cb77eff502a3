import type { Context } from '@pi/context';
import { iterateUntilAborted } from './abortable-iteration';
import { providerErrorText } from './error-text';
import { ModelSilence } from './model-silence';
import type { AssistantMessage, TextPart, ThinkingPart, ToolCallPart, Usage } from '@pi/agent-contract';
import { ProviderError, type ModelProvider, type ProviderEvent, type ProviderRequest } from './provider';

export interface TurnRequest {
  provider: ModelProvider;
  request: ProviderRequest;
  /** `provider/modelId`, stamped on the assistant message. */
  model: string;
  onTextDelta: (delta: string) => void;
  /** Told when the model has been silent for `waitNoticeMs` (and `null` when that silence ends). */
  onWaiting: (silentMs: number | null) => void;
  waitNoticeMs: number;
}

/** A partial message keeps the text streamed so far; it is null when no text had arrived. */
export type TurnResult =
  | { kind: 'answered'; message: AssistantMessage }
  | { kind: 'aborted'; partial: AssistantMessage | null }
  | { kind: 'failed'; error: string; partial: AssistantMessage | null; overflow: boolean };

/** Streams one model answer, forwarding text deltas as they arrive, and assembles the final message. */
export async function streamTurn(turn: TurnRequest, context: Context): Promise<TurnResult> {
  const content: Array<TextPart | ThinkingPart | ToolCallPart> = [];
  let usage: Usage | undefined;
  let stopReason: 'stop' | 'tool_calls' | 'length' | null = null;
  const silence = new ModelSilence(turn.waitNoticeMs, turn.onWaiting);
  const onEvent = (event: ProviderEvent): boolean => {
    silence.heard();
    switch (event.type) {
      case 'text_delta':
        if (event.delta === '') return true;
        appendText(content, event.delta);
        turn.onTextDelta(event.delta);
        return true;
      case 'thinking':
        content.push({
          type: 'thinking',
          text: event.text,
          ...(event.signature === undefined ? {} : { signature: event.signature }),
          ...(event.redacted === true ? { redacted: true } : {}),
        });
        return true;
      case 'tool_call':
        content.push({
          type: 'tool_call',
          id: event.id,
          name: event.name,
          arguments: event.arguments,
          ...(event.signature === undefined ? {} : { signature: event.signature }),
        });
        return true;
      case 'usage':
        usage = priced(event.usage, turn.provider, turn.request.modelId);
        return true;
      case 'done':
        stopReason = event.stopReason;
        return false;
    }
  };
  const signal = context.abortSignal ?? new AbortController().signal;
  const partial = (reason: 'aborted' | 'error'): AssistantMessage | null => {
    // Only the text survives a cut: a tool call without its result would make the next request invalid.
    const text = content.filter((part): part is TextPart => part.type === 'text');
    return text.length === 0
      ? null
      : { role: 'assistant', content: text, model: turn.model, stopReason: reason, ...withUsage(usage) };
  };
  try {
    const end = await iterateUntilAborted(turn.provider.stream(turn.request, context), signal, onEvent);
    if (end === 'aborted') return { kind: 'aborted', partial: partial('aborted') };
  } catch (error) {
    // Never the raw thrown text: a provider's error can quote what the server echoed, credentials included.
    return {
      kind: 'failed',
      error: providerErrorText(error),
      partial: partial('error'),
      overflow: error instanceof ProviderError && error.code === 'context_overflow',
    };
  } finally {
    silence.stop();
  }
  if (stopReason === null) {
    return {
      kind: 'failed',
      error: 'the model stream ended without a done event',
      partial: partial('error'),
      overflow: false,
    };
  }
  return {
    kind: 'answered',
    message: { role: 'assistant', content, model: turn.model, stopReason, ...withUsage(usage) },
  };
}

/** The usage with its cost from the model's catalogue prices (per million tokens), when the catalogue has them. */
export function priced(usage: Usage, provider: ModelProvider, modelId: string): Usage {
  const { cost: _, ...tokens } = usage;
  const price = provider.models().find((model) => model.modelId === modelId)?.cost;
  if (price === undefined) return tokens;
  const cost =
    (tokens.input * price.input +
      tokens.output * price.output +
      tokens.cacheRead * price.cacheRead +
      tokens.cacheWrite * price.cacheWrite) /
    1_000_000;
  return { ...tokens, cost };
}

function withUsage(usage: Usage | undefined): { usage?: Usage } {
  return usage === undefined ? {} : { usage };
}

function appendText(content: Array<TextPart | ThinkingPart | ToolCallPart>, delta: string): void {
  const last = content[content.length - 1];
  if (last?.type === 'text') last.text += delta;
  else content.push({ type: 'text', text: delta });
}
