import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type RequestListener,
  type ServerResponse,
} from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

/** A request the fake server received, with its JSON body parsed. */
export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: unknown;
}

export interface FakeChatServer {
  /** `http://127.0.0.1:<port>/v1` (`https://` with `tls`), as a provider's baseUrl. */
  readonly baseUrl: string;
  readonly requests: RecordedRequest[];
  /** How many connections clients have opened so far (a client that keeps its connection alive opens one). */
  connections(): number;
  close(): Promise<void>;
}

export interface FakeChatServerOptions {
  /** Serves HTTPS with this certificate and key (PEM), e.g. from `makeTestCertificates`. */
  readonly tls?: { readonly cert: string; readonly key: string };
}

export type FakeChatHandler = (
  request: RecordedRequest,
  response: ServerResponse,
  raw: IncomingMessage,
) => void | Promise<void>;

/** A local HTTP server on 127.0.0.1:0 whose handler writes the real wire bytes (SSE or error bodies). */
export async function startFakeChatServer(
  handler: FakeChatHandler,
  options: FakeChatServerOptions = {},
): Promise<FakeChatServer> {
  const requests: RecordedRequest[] = [];
  const listener: RequestListener = (raw, response) => {
    const chunks: Buffer[] = [];
    raw.on('data', (chunk: Buffer) => chunks.push(chunk));
    raw.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const recorded: RecordedRequest = {
        method: raw.method ?? '',
        url: raw.url ?? '',
        headers: raw.headers,
        body: text === '' ? null : JSON.parse(text),
      };
      requests.push(recorded);
      void Promise.resolve(handler(recorded, response, raw)).catch(() => response.destroy());
    });
  };
  const { tls } = options;
  const server =
    tls === undefined ? createServer(listener) : createTlsServer({ cert: tls.cert, key: tls.key }, listener);
  let connections = 0;
  server.on(tls === undefined ? 'connection' : 'secureConnection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `${tls === undefined ? 'http' : 'https'}://127.0.0.1:${port}/v1`,
    requests,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Starts an SSE response with the headers OpenAI sends. */
export function beginEventStream(response: ServerResponse): void {
  response.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
}

/** One `data:` event of a streamed chat completion carrying choice 0. */
export function chunkEvent(delta: object, finishReason: string | null = null): string {
  return `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;
}

/** Writes a piece and waits for it to be flushed, so the client can see it arrive on its own. */
export function writePiece(response: ServerResponse, piece: string): Promise<void> {
  return new Promise((resolve, reject) => response.write(piece, (error) => (error ? reject(error) : resolve())));
}
