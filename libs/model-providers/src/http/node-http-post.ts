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
  /** How long an answer given up before its end may take to end, its connection kept, before it is closed; 1 s. */
  readonly drainGraceMs?: number;
}

type Settings = Required<Pick<NodeHttpPostOptions, 'connectTimeoutMs' | 'drainGraceMs'>> &
  Pick<NodeHttpPostOptions, 'httpAgent' | 'httpsAgent'>;

/** How many redirects are followed, as fetch's limit. */
const MAX_REDIRECTS = 20;
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
const DEFAULT_DRAIN_GRACE_MS = 1_000;
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
  const settings: Settings = {
    ...options,
    connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    drainGraceMs: options.drainGraceMs ?? DEFAULT_DRAIN_GRACE_MS,
  };
  return async (request) => {
    let url = targetUrl(request.url);
    let headers: Record<string, string> = {
      'user-agent': 'node',
      'accept-encoding': ACCEPTED_ENCODINGS,
      ...request.headers,
    };
    for (let redirects = 0; ; redirects += 1) {
      const response = await exchange(url, headers, request, settings);
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
  settings: Settings,
): Promise<PostResponse> {
  const body = Buffer.from(request.body, 'utf8');
  for (;;) {
    request.signal.throwIfAborted();
    try {
      return await send(url, { ...headers, 'content-length': String(body.length) }, body, request.signal, settings);
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
  settings: Settings,
): Promise<PostResponse> {
  return new Promise((resolve, reject) => {
    const secure = url.protocol === 'https:';
    const agent = secure ? settings.httpsAgent : settings.httpAgent;
    const outgoing = (secure ? httpsRequest : httpRequest)(url, { method: 'POST', headers, agent });
    const { connectTimeoutMs } = settings;
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
      answered = postResponse(response, outgoing, settings.drainGraceMs);
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

function postResponse(response: IncomingMessage, outgoing: ClientRequest, drainGraceMs: number): PostResponse {
  const body = decodedBody(response, response.headers['content-encoding']);
  const reader = new StreamTextReader(body);
  let cancelled: Promise<void> | undefined;
  return {
    status: response.statusCode ?? 0,
    statusText: response.statusMessage ?? '',
    header: (name) => headerText(response.headers[name.toLowerCase()]),
    read: () => reader.read(),
    text: () => reader.text(),
    cancel: () => (cancelled ??= giveUp(response, outgoing, reader, drainGraceMs)),
  };
}

/** Done with a response before reading it to its end: see PostResponse.cancel. */
function giveUp(
  response: IncomingMessage,
  outgoing: ClientRequest,
  reader: StreamTextReader,
  drainGraceMs: number,
): Promise<void> {
  if (response.readableEnded || response.destroyed) return Promise.resolve();
  // The rest flows out and is dropped; at the response's end its connection is back in the pool.
  const ended = new Promise<void>((resolve) => {
    response.once('end', resolve);
    response.once('close', resolve);
  });
  reader.drain();
  // All of it has arrived: the end is a moment away, and a request made next can use the connection.
  if (response.complete) return ended;
  // Still arriving. Servers often send the body's end a moment after the answer's last event (a write of its
  // own), so it is given a grace to come, keeping the connection; past it, closing the connection stops a server
  // that goes on. Nobody waits for either.
  const timer = setTimeout(() => outgoing.destroy(), drainGraceMs);
  timer.unref();
  void ended.then(() => clearTimeout(timer));
  return Promise.resolve();
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
