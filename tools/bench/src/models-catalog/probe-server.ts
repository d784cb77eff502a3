import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An OpenAI-compatible `GET /v1/models` on 127.0.0.1, so the refresh's probes of the catalogue's servers pass. */
export async function startProbeServer(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    if (request.url !== '/v1/models') return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"object":"list","data":[]}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
