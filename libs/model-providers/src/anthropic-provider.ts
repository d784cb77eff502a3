import type { ModelProvider } from '@pi/agent';
import { anthropicMessagesBody } from './anthropic-request';
import { AnthropicStreamAccumulator } from './anthropic-stream';
import { createServerProvider, type ServerProviderOptions } from './server-provider';
import { endpoint } from './server-stream';

/** The API version pi speaks; the Messages API keeps old versions working, so it changes only with pi. */
export const ANTHROPIC_VERSION = '2023-06-01';

export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';

/** `baseUrl` without the API version (default https://api.anthropic.com): `/v1/messages` is appended. */
export type AnthropicProviderOptions = ServerProviderOptions;

/** A provider for Anthropic's Messages API: streamed text, tool use, extended thinking, prompt caching, usage. */
export function createAnthropicProvider(options: AnthropicProviderOptions): ModelProvider {
  return createServerProvider(options, (request, model) => ({
    url: endpoint(options.baseUrl, '/v1/messages'),
    headers: (apiKey) => ({
      'content-type': 'application/json',
      'anthropic-version': ANTHROPIC_VERSION,
      ...(apiKey ? { 'x-api-key': apiKey } : {}),
    }),
    body: JSON.stringify(anthropicMessagesBody(request, model)),
    accumulator: new AnthropicStreamAccumulator(),
  }));
}
