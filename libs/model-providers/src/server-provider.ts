import {
  ProviderError,
  summaryPrompt,
  type ModelProvider,
  type ModelSpec,
  type ProviderLogin,
  type ProviderRequest,
  type SummaryRequest,
} from '@pi/agent';
import type { Context } from '@pi/context';
import { collectSummary } from './collect-summary';
import { streamFromServer, type ServerConnection, type StreamedRequest } from './server-stream';
import { checkIdleTimeout } from './stall-watch';

/** A catalogue entry of a server's model; its `provider` is always the provider's id. */
export type ServerModel = Omit<ModelSpec, 'provider'> & { readonly provider?: string };

export interface ServerProviderOptions extends ServerConnection {
  readonly id: string;
  readonly models: readonly ServerModel[];
  /** How a person signs in instead of typing a key, when the provider offers it. */
  readonly login?: ProviderLogin;
}

/** How one wire protocol asks for a turn: the HTTP request, and the reader of its answer's stream. */
export type WireProtocol = (request: ProviderRequest, model: ModelSpec) => StreamedRequest;

/**
 * A provider of a model server speaking `protocol`: its catalogue, streamed turns over the shared server path (key,
 * idle timeout, retries, redaction), an unknown model refused before anything is sent, and compaction summaries as
 * a plain turn of the same protocol (the summary prompt as the system prompt, no tools, no thinking).
 */
export function createServerProvider(options: ServerProviderOptions, protocol: WireProtocol): ModelProvider {
  if (options.idleTimeoutMs !== undefined) checkIdleTimeout(options.idleTimeoutMs);
  const models: readonly ModelSpec[] = Object.freeze(
    options.models.map((model) => Object.freeze({ ...model, provider: options.id })),
  );
  const stream = (request: ProviderRequest, context: Context) =>
    streamFromServer(
      options,
      () => {
        const model = models.find((candidate) => candidate.modelId === request.modelId);
        if (model === undefined)
          throw new ProviderError('unknown_model', `${options.name} has no model "${request.modelId}"`);
        return protocol(request, model);
      },
      context,
    );
  return {
    id: options.id,
    name: options.name,
    ...(options.login === undefined ? {} : { login: options.login }),
    models: () => models,
    stream,
    summarize: (request, context) => collectSummary(stream(summaryTurn(request), context)),
  };
}

/**
 * The summary request of a compaction as a turn: the harness's summary prompt as the system prompt and the
 * conversation as text in one user message — no tools and no tool messages, which some servers refuse without a
 * tool list. Streamed like a turn, so the timeouts, retries, errors and redaction are the turn's.
 */
export function summaryTurn(request: SummaryRequest): ProviderRequest {
  const prompt = summaryPrompt(request);
  return {
    modelId: request.modelId,
    systemPrompt: prompt.system,
    messages: [{ role: 'user', content: [{ type: 'text', text: prompt.user }] }],
    tools: [],
    thinkingLevel: 'off',
  };
}
