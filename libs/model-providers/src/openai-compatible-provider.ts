import { ProviderError, type ModelProvider, type ModelSpec, type ProviderEvent, type ProviderRequest } from '@pi/agent';
import type { Context } from '@pi/context';
import { ChatCompletionAccumulator } from './chat-completion-chunks';
import { httpErrorMessage } from './http-error-message';
import { chatCompletionBody } from './openai-request';
import { abortedError, throwIfAborted } from './provider-abort';
import { SseDecoder } from './sse-decoder';

/** A model the server offers; `provider` is filled in from the provider's id. */
export interface OpenAICompatibleModel {
  readonly modelId: string;
  readonly name?: string;
  readonly reasoning?: boolean;
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
}

/** A provider for any server speaking OpenAI's streaming chat-completions API (OpenAI, OpenRouter, vLLM, Ollama…). */
export function createOpenAICompatibleProvider(options: OpenAICompatibleProviderOptions): ModelProvider {
  const models: readonly ModelSpec[] = Object.freeze(
    options.models.map((model) =>
      Object.freeze({
        provider: options.id,
        modelId: model.modelId,
        name: model.name ?? model.modelId,
        reasoning: model.reasoning ?? false,
      }),
    ),
  );
  return {
    id: options.id,
    name: options.name,
    models: () => models,
    stream: (request, context) => streamChatCompletion(options, models, request, context),
  };
}

async function* streamChatCompletion(
  options: OpenAICompatibleProviderOptions,
  models: readonly ModelSpec[],
  request: ProviderRequest,
  context: Context,
): AsyncGenerator<ProviderEvent> {
  const model = models.find((candidate) => candidate.modelId === request.modelId);
  if (model === undefined)
    throw new ProviderError('unknown_model', `${options.name} has no model "${request.modelId}"`);
  throwIfAborted(context);
  const apiKey = await readApiKey(options);
  throwIfAborted(context);

  const headers: Record<string, string> = {
    ...options.headers,
    'content-type': 'application/json',
    accept: 'text/event-stream',
  };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(`${options.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
      method: 'POST',
      headers,
      body: JSON.stringify(chatCompletionBody(request, model)),
      signal: context.abortSignal,
    });
  } catch (thrown) {
    if (context.abortSignal?.aborted === true) throw abortedError();
    throw new ProviderError('stream_dropped', `cannot reach ${options.name}: ${networkCause(thrown)}`);
  }
  if (!response.ok) throw new ProviderError('http_status', await httpErrorMessage(options.name, response, apiKey));
  if (response.body === null) throw new ProviderError('stream_dropped', `${options.name} answered without a body`);
  yield* readChatCompletionStream(options.name, response.body, context);
}

async function* readChatCompletionStream(
  providerName: string,
  body: ReadableStream<Uint8Array>,
  context: Context,
): AsyncGenerator<ProviderEvent> {
  const reader = body.getReader();
  const text = new TextDecoder();
  const sse = new SseDecoder();
  const accumulator = new ChatCompletionAccumulator();
  const release = (): Promise<void> => reader.cancel().catch(() => undefined);
  try {
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (thrown) {
        if (context.abortSignal?.aborted === true) throw abortedError();
        throw new ProviderError('stream_dropped', `the ${providerName} stream broke off: ${networkCause(thrown)}`);
      }
      const payloads = chunk.done
        ? [...sse.push(text.decode()), ...sse.finish()]
        : sse.push(text.decode(chunk.value, { stream: true }));
      for (const payload of payloads) {
        const events = payload === '[DONE]' ? accumulator.finish() : accumulator.accept(parseJson(payload));
        // The turn is complete: free the connection now rather than when the consumer next pulls.
        if (accumulator.finished) await release();
        for (const event of events) {
          // Checked before each event, so an abort never fails a turn that has already delivered `done`.
          throwIfAborted(context);
          yield event;
        }
        if (accumulator.finished) return;
      }
      if (chunk.done)
        throw new ProviderError('stream_dropped', `the ${providerName} stream ended before the answer was complete`);
    }
  } finally {
    await release();
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

function parseJson(payload: string): unknown {
  try {
    return JSON.parse(payload);
  } catch {
    throw new ProviderError('malformed', 'a stream event is not valid JSON');
  }
}

/** undici reports "fetch failed" / "terminated" and keeps the useful part (e.g. ECONNREFUSED) in `cause`. */
function networkCause(thrown: unknown): string {
  if (!(thrown instanceof Error)) return String(thrown);
  const cause = thrown.cause;
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return typeof code === 'string' ? `${thrown.message} (${code})` : `${thrown.message} (${cause.message})`;
  }
  return thrown.message;
}
