import { ProviderError, type ProviderEvent } from '@pi/agent';
import type { Context } from '@pi/context';
import { readEventStream, type StreamAccumulator } from './event-stream';
import { openEventStream } from './event-stream-request';
import { fetchPost } from './http/fetch-post';
import { nodeHttpPost } from './http/node-http-post';
import { networkCause } from './network-cause';
import { throwIfAborted } from './provider-abort';
import { redactedFailure } from './provider-redaction';
import { DEFAULT_RETRY_BUDGET } from './retry-after';
import { DEFAULT_IDLE_TIMEOUT_MS } from './stall-watch';

/** How a provider reaches its server: the same for every wire protocol. */
export interface ServerConnection {
  /** The provider's name, as errors say it. */
  readonly name: string;
  /** Its base URL; a credential written into it is a secret like the key. */
  readonly baseUrl: string;
  /**
   * Read before every request, so a key added or rotated later applies to the next turn. Resolving undefined
   * or '' fails the turn with no_credentials. Omit it for a server without authentication (a local one).
   */
  readonly apiKey?: () => Promise<string | undefined>;
  /**
   * Sends the requests in place of the built-in client (node:http, connections kept alive): tests that script a
   * failure no server can produce, or an embedder with a dispatcher of its own (a proxy).
   */
  readonly fetch?: typeof fetch;
  /** Extra request headers; the protocol's own (authentication, content type) always win. */
  readonly headers?: Readonly<Record<string, string>>;
  /** How long the server may send nothing (no headers, no chunk) before the turn fails; default 90 s. */
  readonly idleTimeoutMs?: number;
}

/** One streamed request in a protocol: where to POST, its headers given the key, the body, how to read the answer. */
export interface StreamedRequest {
  readonly url: string;
  readonly headers: (apiKey: string | undefined) => Record<string, string>;
  readonly body: string;
  readonly accumulator: StreamAccumulator;
}

/**
 * POSTs one request and streams its answer, with what every provider shares: the key read per request, the idle
 * timeout, bounded retries, and one redaction step every failure goes through (a server can echo the key anywhere).
 * `prepare` runs first and may throw a ProviderError (an unknown model) before anything is sent.
 */
export async function* streamFromServer(
  server: ServerConnection,
  prepare: () => StreamedRequest,
  context: Context,
): AsyncGenerator<ProviderEvent> {
  const secrets = urlSecrets(server.baseUrl);
  try {
    const request = prepare();
    throwIfAborted(context);
    const apiKey = await readApiKey(server);
    if (apiKey !== undefined) secrets.push(apiKey);
    throwIfAborted(context);
    const { body, watch } = await openEventStream(
      {
        providerName: server.name,
        url: request.url,
        headers: headerLayers(server.headers ?? {}, request.headers(apiKey), { accept: 'text/event-stream' }),
        body: request.body,
        post: server.fetch === undefined ? nodeHttpPost : fetchPost(server.fetch),
        idleTimeoutMs: server.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
        retry: DEFAULT_RETRY_BUDGET,
      },
      context,
    );
    yield* readEventStream(server.name, body, request.accumulator, context, watch);
  } catch (thrown) {
    throw redactedFailure(thrown, secrets);
  }
}

/**
 * The request's headers, later layers winning. Names are compared without case, as HTTP does, so a configured
 * `Authorization` never stands beside the protocol's own `authorization`.
 */
function headerLayers(...layers: ReadonlyArray<Readonly<Record<string, string>>>): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const layer of layers) for (const [name, value] of Object.entries(layer)) merged[name.toLowerCase()] = value;
  return merged;
}

/** The base URL without trailing slashes, with `path` appended. */
export function endpoint(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${path}`;
}

/** undefined when the server needs no key; a missing or unreadable key is no_credentials, before any request. */
async function readApiKey(server: ServerConnection): Promise<string | undefined> {
  if (server.apiKey === undefined) return undefined;
  let apiKey: string | undefined;
  try {
    apiKey = await server.apiKey();
  } catch (thrown) {
    throw new ProviderError(
      'no_credentials',
      `the API key for ${server.name} could not be read: ${networkCause(thrown)}`,
    );
  }
  if (!apiKey) throw new ProviderError('no_credentials', `no API key is configured for ${server.name}`);
  return apiKey;
}

/**
 * A credential written into the base URL (`https://user:token@host`) is a secret too: the client refuses such a
 * URL with an error that quotes it. The token is the password, or the user name when there is no password.
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
