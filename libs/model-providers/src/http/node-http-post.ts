import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import type { HttpPost, PostRequest, PostResponse } from './http-post';
import { ACCEPTED_ENCODINGS, decodedBody } from './response-body';
import { StreamTextReader } from './stream-text-reader';

export interface NodeHttpPostOptions {
  /** The connections to plain-HTTP servers; one keep-alive agent of this module's by default. */
  readonly httpAgent?: HttpAgent;
  /** The connections to HTTPS servers (its `ca` replaces Node's roots, which NODE_EXTRA_CA_CERTS extends). */
  readonly httpsAgent?: HttpsAgent;
  /** How long a new connection may take to be made (DNS, TCP, TLS); undici's 10 s by default. */
  readonly connectTimeoutMs?: number;
}

/** How many redirects are followed, as fetch's limit. */
const MAX_REDIRECTS = 20;
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
/**
 * Idle pooled connections are closed after 4 s (undici's default), sooner when the server's `Keep-Alive: timeout`
 * says so (Node's agent reads it), so a turn rarely meets a connection the server has just closed.
 */
const KEEP_ALIVE = { keepAlive: true, timeout: 4_000, scheduling: 'lifo' } as const;

let defaultPost: HttpPost | undefined;

/** The built-in client, on connections kept alive between the turns of every provider in the process. */
export const nodeHttpPost: HttpPost = (request) => {
  defaultPost ??= createNodeHttpPost({ httpAgent: new HttpAgent(KEEP_ALIVE), httpsAgent: new HttpsAgent(KEEP_ALIVE) });
  return defaultPost(request);
};

/**
 * A provider's POST over node:http and node:https: what fetch did for a streamed answer, without its web-stream
 * layer per read. Follows 307 and 308 redirects (the method and body kept; `authorization` dropped when the
 * redirect leaves the origin, as fetch does), decodes gzip, deflate and brotli bodies, refuses a URL with
 * credentials in it (as fetch does), and sends a request again once when a kept-alive connection turns out to
 * have been closed by the server before it answered (the server never saw it).
 */
export function createNodeHttpPost(options: NodeHttpPostOptions = {}): HttpPost {
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  return async (request) => {
    let url = targetUrl(request.url);
    let headers: Record<string, string> = {
      'user-agent': 'node',
      'accept-encoding': ACCEPTED_ENCODINGS,
      ...request.headers,
    };
    for (let redirects = 0; ; redirects += 1) {
      const response = await exchange(url, headers, request, options, connectTimeoutMs);
      const location = response.header('location');
      if ((response.status !== 307 && response.status !== 308) || location === null || redirects === MAX_REDIRECTS)
        return response;
      await response.cancel();
      const next = targetUrl(new URL(location, url).href);
      if (next.origin !== url.origin) headers = withoutHeader(headers, 'authorization');
      url = next;
    }
  };
}

function targetUrl(text: string): URL {
  const url = new URL(text);
  if (url.username !== '' || url.password !== '')
    throw new TypeError(`a URL with credentials in it is refused: ${text}`);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`${url.protocol} is not an HTTP address: ${text}`);
  return url;
}

async function exchange(
  url: URL,
  headers: Readonly<Record<string, string>>,
  request: PostRequest,
  options: NodeHttpPostOptions,
  connectTimeoutMs: number,
): Promise<PostResponse> {
  const body = Buffer.from(request.body, 'utf8');
  for (;;) {
    request.signal.throwIfAborted();
    try {
      return await send(url, { ...headers, 'content-length': String(body.length) }, body, request.signal, {
        agent: url.protocol === 'https:' ? options.httpsAgent : options.httpAgent,
        connectTimeoutMs,
      });
    } catch (thrown) {
      if (!(thrown instanceof StaleConnection)) throw thrown;
    }
  }
}

/** A kept-alive connection the server had closed: the request never reached it, so it is sent again. */
class StaleConnection extends Error {}

function send(
  url: URL,
  headers: Record<string, string>,
  body: Buffer,
  signal: AbortSignal,
  { agent, connectTimeoutMs }: { agent: HttpAgent | undefined; connectTimeoutMs: number },
): Promise<PostResponse> {
  return new Promise((resolve, reject) => {
    const secure = url.protocol === 'https:';
    const outgoing = (secure ? httpsRequest : httpRequest)(url, { method: 'POST', headers, agent });
    let answered: PostResponse | undefined;
    const onAbort = (): void => void outgoing.destroy(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    outgoing.once('close', () => signal.removeEventListener('abort', onAbort));
    outgoing.once('socket', (socket: Socket) => {
      if (outgoing.reusedSocket) return;
      const timer = setTimeout(() => outgoing.destroy(connectTimeout(connectTimeoutMs)), connectTimeoutMs);
      socket.once(secure ? 'secureConnect' : 'connect', () => clearTimeout(timer));
      outgoing.once('close', () => clearTimeout(timer));
    });
    outgoing.once('response', (response: IncomingMessage) => {
      answered = postResponse(response, outgoing);
      resolve(answered);
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      if (answered !== undefined) return; // The body's reader reports it.
      const stale = outgoing.reusedSocket && !signal.aborted && (error.code === 'ECONNRESET' || error.code === 'EPIPE');
      reject(stale ? new StaleConnection(error.message) : error);
    });
    outgoing.end(body);
  });
}

function postResponse(response: IncomingMessage, outgoing: ClientRequest): PostResponse {
  const body = decodedBody(response, response.headers['content-encoding']);
  const reader = new StreamTextReader(body);
  return {
    status: response.statusCode ?? 0,
    statusText: response.statusMessage ?? '',
    header: (name) => headerText(response.headers[name.toLowerCase()]),
    read: () => reader.read(),
    text: () => reader.text(),
    cancel() {
      if (response.readableEnded || response.destroyed) return Promise.resolve();
      // The server is still sending: only closing the connection stops it.
      if (!response.complete) {
        outgoing.destroy();
        return Promise.resolve();
      }
      // All of it has arrived: the rest flows out, and at the response's end the connection is back in the pool.
      const ended = new Promise<void>((resolve) => {
        response.once('end', resolve);
        response.once('close', resolve);
      });
      reader.drain();
      return ended;
    },
  };
}

function headerText(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return typeof value === 'string' ? value : value.join(', ');
}

function withoutHeader(headers: Record<string, string>, name: string): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([key]) => key.toLowerCase() !== name));
}

function connectTimeout(ms: number): Error {
  return Object.assign(new Error(`connect timed out after ${ms / 1000} s`), { code: 'ETIMEDOUT' });
}
