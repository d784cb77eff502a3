import {
  ProviderError,
  type AgentMessage,
  type ModelProvider,
  type ModelSpec,
  type ProviderEvent,
  type ProviderRequest,
} from '@pi/agent';
import type { Context } from '@pi/context';
import { decideOfflineReply } from './offline-reply';
import { offlineSummary } from './offline-summary';
import { throwIfAborted } from './provider-abort';
import { wordChunks } from './word-chunks';

export const OFFLINE_PROVIDER_ID = 'offline';

/**
 * The offline models' catalogue window: small enough that a long offline session shows compaction, large enough
 * for the built-in tools' schemas and a working conversation.
 */
export const OFFLINE_CONTEXT_WINDOW = 32_768;

const offlineModels: readonly ModelSpec[] = Object.freeze([
  Object.freeze({
    provider: OFFLINE_PROVIDER_ID,
    modelId: 'echo',
    name: 'Offline echo',
    reasoning: false,
    contextWindow: OFFLINE_CONTEXT_WINDOW,
  }),
  Object.freeze({
    provider: OFFLINE_PROVIDER_ID,
    modelId: 'thinker',
    name: 'Offline thinker',
    reasoning: true,
    contextWindow: OFFLINE_CONTEXT_WINDOW,
  }),
]);

/**
 * The embedded default provider: no network, no key, deterministic. It answers from the last message with the
 * grammar of `decideOfflineReply` (documented in README.md), so the product runs end to end on a fresh machine
 * and in tests.
 */
export function createOfflineProvider(): ModelProvider {
  return {
    id: OFFLINE_PROVIDER_ID,
    name: 'Offline',
    models: () => offlineModels,
    stream: (request, context) => streamOfflineReply(request, context),
    summarize: async (request, context) => {
      if (!offlineModels.some((model) => model.modelId === request.modelId))
        throw new ProviderError('unknown_model', `the offline provider has no model "${request.modelId}"`);
      throwIfAborted(context);
      return offlineSummary(request);
    },
  };
}

async function* streamOfflineReply(request: ProviderRequest, context: Context): AsyncGenerator<ProviderEvent> {
  const model = offlineModels.find((candidate) => candidate.modelId === request.modelId);
  if (model === undefined)
    throw new ProviderError('unknown_model', `the offline provider has no model "${request.modelId}"`);
  throwIfAborted(context);
  const reply = decideOfflineReply(request, model);
  if (reply.kind === 'tool_call') {
    await nextEventLoopTurn();
    throwIfAborted(context);
    yield { type: 'tool_call', id: nextToolCallId(request.messages), name: reply.name, arguments: reply.arguments };
    yield { type: 'done', stopReason: 'tool_calls' };
    return;
  }
  for (const delta of wordChunks(reply.text)) {
    // A real turn of the event loop between deltas (not a timer), so consumers see the answer arrive in pieces.
    await nextEventLoopTurn();
    throwIfAborted(context);
    yield { type: 'text_delta', delta };
  }
  yield { type: 'done', stopReason: 'stop' };
}

function nextEventLoopTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Unique within the run and reproducible: one more than the tool calls already in the conversation. */
function nextToolCallId(messages: readonly AgentMessage[]): string {
  let calls = 0;
  for (const message of messages) {
    if (message.role === 'assistant') calls += message.content.filter((part) => part.type === 'tool_call').length;
  }
  return `offline_call_${calls + 1}`;
}
