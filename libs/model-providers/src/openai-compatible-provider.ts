import { ProviderError, type ModelProvider, type ModelSpec, type ProviderEvent } from '@pi/agent';
import type { Context } from '@pi/context';
import { ChatCompletionAccumulator } from './chat-completion-chunks';
import { openEventStream } from './event-stream-request';
import { readEventStream } from './event-stream';
import { networkCause } from './network-cause';
import { chatCompletionBody, type ChatCompletionBody } from './openai-request';
import { collectSummary, summaryCompletionBody } from './openai-summary';
import { throwIfAborted } from './provider-abort';
import { redactedFailure } from './provider-redaction';
import { DEFAULT_RETRY_BUDGET } from './retry-after';
import { DEFAULT_IDLE_TIMEOUT_MS, checkIdleTimeout } from './stall-watch';

/** A model the server offers; `provider` is filled in from the provider's id. */
export interface OpenAICompatibleModel {
  readonly modelId: string;
  readonly name?: string;
  readonly reasoning?: boolean;
  /** The model's context window in tokens, when known (automatic compaction needs it). */
  readonly contextWindow?: number;
}

export interface OpenAICompatibleProviderOptions {
  readonly id: string;
  readonly name: string;
  /** Up to and including the API version, e.g. `https://api.openai.com/v1`; `/chat/completions` is appended. */
  readonly baseUrl: string;
  readonly models: readonly OpenAICompatibleModel[];
  /**
   * Read before every request, so a key added or rotated later applies to the next turn. Resolving undefined
   * or '' fails the turn with no_credentials. Omit it for a server without authentication (a local one).
   */
  readonly apiKey?: () => Promise<string | undefined>;
  readonly fetch?: typeof fetch;
  /** Extra request headers (e.g. OpenRouter's HTTP-Referer); the Authorization header always wins. */
  readonly headers?: Readonly<Record<string, string>>;
  /** How long the server may send nothing (no headers, no chunk) before the turn fails; default 90 s. */
  readonly idleTimeoutMs?: number;
}

/** A provider for any server speaking OpenAI's streaming chat-completions API (OpenAI, OpenRouter, vLLM, Ollama…). */
export function createOpenAICompatibleProvider(options: OpenAICompatibleProviderOptions): ModelProvider {
  if (options.idleTimeoutMs !== undefined) checkIdleTimeout(options.idleTimeoutMs);
  const models: readonly ModelSpec[] = Object.freeze(
    options.models.map((model) =>
      Object.freeze({
        provider: options.id,
        modelId: model.modelId,
        name: model.name ?? model.modelId,
        reasoning: model.reasoning ?? false,
        ...(model.contextWindow === undefined ? {} : { contextWindow: model.contextWindow }),
      }),
    ),
  );
  return {
    id: options.id,
    name: options.name,
    models: () => models,
    stream: (request, context) =>
      streamChatCompletion(options, models, request.modelId, (model) => chatCompletionBody(request, model), context),
    // A real request: the same endpoint, key, timeouts, retries, errors and redaction as a turn.
    summarize: (request, context) =>
      collectSummary(
        streamChatCompletion(
          options,
          models,
          request.modelId,
          (model) => summaryCompletionBody(request, model),
          context,
        ),
      ),
  };
}

async function* streamChatCompletion(
  options: OpenAICompatibleProviderOptions,
  models: readonly ModelSpec[],
  modelId: string,
  bodyFor: (model: ModelSpec) => ChatCompletionBody,
  context: Context,
): AsyncGenerator<ProviderEvent> {
  const secrets = urlSecrets(options.baseUrl);
  try {
    const model = models.find((candidate) => candidate.modelId === modelId);
    if (model === undefined) throw new ProviderError('unknown_model', `${options.name} has no model "${modelId}"`);
    throwIfAborted(context);
    const apiKey = await readApiKey(options);
    if (apiKey !== undefined) secrets.push(apiKey);
    throwIfAborted(context);

    const headers: Record<string, string> = {
      ...options.headers,
      'content-type': 'application/json',
      accept: 'text/event-stream',
    };
    if (apiKey) headers.authorization = `Bearer ${apiKey}`;
    const { body, watch } = await openEventStream(
      {
        providerName: options.name,
        url: `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`,
        headers,
        body: JSON.stringify(bodyFor(model)),
        fetch: options.fetch ?? fetch,
        idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
        retry: DEFAULT_RETRY_BUDGET,
      },
      context,
    );
    yield* readEventStream(options.name, body, new ChatCompletionAccumulator(), context, watch);
  } catch (thrown) {
    // The one way out for every failure, whatever path it took: a server can echo the key anywhere.
    throw redactedFailure(thrown, secrets);
  }
}

/** undefined when the server needs no key; a missing or unreadable key is no_credentials, before any request. */
async function readApiKey(options: OpenAICompatibleProviderOptions): Promise<string | undefined> {
  if (options.apiKey === undefined) return undefined;
  let apiKey: string | undefined;
  try {
    apiKey = await options.apiKey();
  } catch (thrown) {
    throw new ProviderError(
      'no_credentials',
      `the API key for ${options.name} could not be read: ${networkCause(thrown)}`,
    );
  }
  if (!apiKey) throw new ProviderError('no_credentials', `no API key is configured for ${options.name}`);
  return apiKey;
}

/**
 * A credential written into the base URL (`https://user:token@host`) is a secret too: fetch refuses such a URL
 * with an error that quotes it. The token is the password, or the user name when there is no password.
 */
function urlSecrets(baseUrl: string): string[] {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return [];
  }
  const secret = url.password || url.username;
  if (secret === '') return [];
  try {
    return [decodeURIComponent(secret)];
  } catch {
    return [secret];
  }
}
