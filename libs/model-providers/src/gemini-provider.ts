import type { AgentMessage, ModelProvider } from '@pi/agent';
import { geminiBody } from './gemini-request';
import { GeminiStreamAccumulator } from './gemini-stream';
import { createServerProvider, type ServerProviderOptions } from './server-provider';
import { endpoint } from './server-stream';

export const GEMINI_BASE_URL = 'https://generativelanguage.googleapis.com/v1beta';

/** `baseUrl` up to and including the API version (default https://generativelanguage.googleapis.com/v1beta). */
export type GeminiProviderOptions = ServerProviderOptions;

/** A provider for Google's Gemini API (`streamGenerateContent` as SSE): text, function calls, thoughts, usage. */
export function createGeminiProvider(options: GeminiProviderOptions): ModelProvider {
  return createServerProvider(options, (request, model) => ({
    url: endpoint(options.baseUrl, `/models/${encodeURIComponent(model.modelId)}:streamGenerateContent?alt=sse`),
    headers: (apiKey) => ({ 'content-type': 'application/json', ...(apiKey ? { 'x-goog-api-key': apiKey } : {}) }),
    body: JSON.stringify(geminiBody(request, model)),
    // Ids pi gives Gemini's calls continue the conversation's count, so a replayed conversation gets the same ones.
    accumulator: new GeminiStreamAccumulator(toolCallsIn(request.messages)),
  }));
}

function toolCallsIn(messages: readonly AgentMessage[]): number {
  let calls = 0;
  for (const message of messages)
    if (message.role === 'assistant') calls += message.content.filter((part) => part.type === 'tool_call').length;
  return calls;
}
