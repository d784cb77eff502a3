import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeServerMode = 'ok' | 'unauthorized' | 'hold';

/**
 * An OpenAI-compatible server that answers `GET /v1/models` on 127.0.0.1, for probe tests. In `hold` mode it
 * keeps every request open until `release()` (or the client gives up), so a test controls when a probe ends.
 */
export interface FakeModelsServer {
  readonly baseUrl: string;
  mode: FakeServerMode;
  /** The Authorization header of each request, in arrival order ('' when absent). */
  readonly authorizations: string[];
  /** The x-api-key header (Anthropic's) of each request, in arrival order ('' when absent). */
  readonly apiKeys: string[];
  /** Requests currently held open. */
  readonly held: number;
  release(): void;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

export async function startFakeModelsServer(mode: FakeServerMode = 'ok'): Promise<FakeModelsServer> {
  const held = new Set<ServerResponse>();
  const authorizations: string[] = [];
  const apiKeys: string[] = [];
  const answer = (response: ServerResponse) => {
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ object: 'list', data: [{ id: 'big', object: 'model' }] }));
  };
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    authorizations.push(request.headers.authorization ?? '');
    apiKeys.push(String(request.headers['x-api-key'] ?? ''));
    if (request.url !== '/v1/models') return void response.writeHead(404).end();
    if (fake.mode === 'unauthorized') return void response.writeHead(401, 'Unauthorized').end('{"error":"bad key"}');
    if (fake.mode === 'ok') return answer(response);
    held.add(response);
    response.on('close', () => held.delete(response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  const fake: FakeModelsServer = {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    mode,
    authorizations,
    apiKeys,
    get held() {
      return held.size;
    },
    release() {
      for (const response of [...held]) answer(response);
      held.clear();
    },
    close,
    [Symbol.asyncDispose]: close,
  };
  return fake;
}
