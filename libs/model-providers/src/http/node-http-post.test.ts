import { getEventListeners, once } from 'node:events';
import { Agent as HttpAgent, createServer, type Server } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { constants, createGzip, gzipSync } from 'node:zlib';
import { makeTestCertificates, type TestCertificates } from '@pi/transport-trpc/testing';
import { afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { unresolvableInvalidNames } from '../../test/unresolvable-names';
import { beginEventStream, startFakeChatServer, writePiece, type FakeChatHandler } from '../testing';
import type { HttpPost, PostRequest } from './http-post';
import { createNodeHttpPost } from './node-http-post';

let agents: { http: HttpAgent; https: HttpsAgent };
let post: HttpPost;

afterEach(() => {
  agents.http.destroy();
  agents.https.destroy();
});

/** A client with agents of its own, so a test can see which connections it holds. */
function client(options: { ca?: string; connectTimeoutMs?: number; drainGraceMs?: number } = {}): HttpPost {
  agents = {
    http: new HttpAgent({ keepAlive: true }),
    https: new HttpsAgent({ keepAlive: true, ...(options.ca === undefined ? {} : { ca: options.ca }) }),
  };
  post = createNodeHttpPost({ httpAgent: agents.http, httpsAgent: agents.https, ...options });
  return post;
}

async function serve(handler: FakeChatHandler, tls?: TestCertificates) {
  const server = await startFakeChatServer(handler, tls === undefined ? {} : { tls });
  onTestFinished(() => server.close());
  return server;
}

const request = (url: string, overrides: Partial<PostRequest> = {}): PostRequest => ({
  url,
  headers: { 'content-type': 'application/json' },
  body: '{"hello":"wörld"}',
  signal: new AbortController().signal,
  ...overrides,
});

/** Resolves once `server` has seen `count` connections close. */
function closedConnections(server: Server, count: number): Promise<void> {
  let closed = 0;
  return new Promise((resolve) =>
    server.on('connection', (socket: Socket) => socket.on('close', () => (closed += 1) === count && resolve())),
  );
}

async function listening(server: Server | ReturnType<typeof createTcpServer>): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return (server.address() as AddressInfo).port;
}

describe('the built-in HTTP client', () => {
  it('posts the body with the headers given, asks for compressed answers and reads the body as it arrives', async () => {
    const server = await serve(async (_request, response) => {
      beginEventStream(response);
      await writePiece(response, 'data: one\n\n');
    });
    const response = await client()(
      request(`${server.baseUrl}/chat`, { headers: { 'X-Title': 'pi', 'user-agent': 'mine' } }),
    );
    expect(response.status).toBe(200);
    expect(response.header('Content-Type')).toBe('text/event-stream');
    expect(await response.read()).toBe('data: one\n\n');
    await response.cancel();
    const [received] = server.requests;
    expect(received).toMatchObject({ method: 'POST', url: '/v1/chat', body: { hello: 'wörld' } });
    expect(received?.headers).toMatchObject({
      'x-title': 'pi',
      'user-agent': 'mine',
      'accept-encoding': 'gzip, deflate, br',
      'content-length': String(Buffer.byteLength('{"hello":"wörld"}')),
    });
  });

  it('decodes a gzip answer', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
      response.end(gzipSync('data: packed\n\n'));
    });
    expect(await (await client()(request(server.baseUrl))).text()).toBe('data: packed\n\n');
  });

  it('keeps the connection for the next request once an answer was read to its end', async () => {
    const server = await serve((_request, response) => void response.end('done'));
    const post = client();
    for (const _ of [1, 2, 3]) expect(await (await post(request(server.baseUrl))).text()).toBe('done');
    expect(server.connections()).toBe(1);
  });

  it('sends the request again on a new connection when the server had closed the kept one', async () => {
    let served = 0;
    const server = createServer((incoming, response) => {
      incoming.resume();
      served += 1;
      // The first answer says keep-alive; the next request on that connection finds it closed without an answer.
      if (served === 2) return void incoming.socket.destroy();
      response.end(`answer ${served}`);
    });
    const port = await listening(server);
    const post = client();
    expect(await (await post(request(`http://127.0.0.1:${port}/`))).text()).toBe('answer 1');
    expect(await (await post(request(`http://127.0.0.1:${port}/`))).text()).toBe('answer 3');
  });

  it('closes the connection when its signal aborts mid-stream, and keeps nothing of the request', async () => {
    let closed!: () => void;
    const serverSawClose = new Promise<void>((resolve) => (closed = resolve));
    const server = await serve(async (_request, response) => {
      response.on('close', closed);
      beginEventStream(response);
      await writePiece(response, 'data: first\n\n');
    });
    const controller = new AbortController();
    const response = await client()(request(server.baseUrl, { signal: controller.signal }));
    expect(await response.read()).toBe('data: first\n\n');
    const next = response.read();
    controller.abort(new Error('the user pressed Escape'));
    await expect(next).rejects.toThrow();
    await serverSawClose;
    expect(Object.keys(agents.http.sockets)).toEqual([]);
    expect(Object.keys(agents.http.freeSockets)).toEqual([]);
    expect(getEventListeners(controller.signal, 'abort')).toEqual([]);
  });

  it('leaves no listener on the signal once an answer was read', async () => {
    const server = await serve((_request, response) => void response.end('done'));
    const controller = new AbortController();
    await (await client()(request(server.baseUrl, { signal: controller.signal }))).text();
    await new Promise((resolve) => setImmediate(resolve));
    expect(getEventListeners(controller.signal, 'abort')).toEqual([]);
  });

  it('pools the connection of an answer given up once it had fully arrived, before the next request', async () => {
    const server = await serve((_request, response) => {
      beginEventStream(response);
      response.end('data: all\n\n');
    });
    const post = client();
    const whole = await post(request(server.baseUrl));
    expect(await whole.read()).toBe('data: all\n\n');
    await whole.cancel();
    expect(await (await post(request(server.baseUrl))).text()).toBe('data: all\n\n');
    expect(server.connections()).toBe(1);
  });

  it('keeps the connection of an answer given up just before its end, which came a moment later', async () => {
    const server = await serve(async (_request, response) => {
      beginEventStream(response);
      await writePiece(response, 'data: [DONE]\n\n');
      // The body's end as a write of its own, after the last event (as many servers send it).
      setTimeout(() => response.end(), 20);
    });
    const post = client({ drainGraceMs: 5_000 });
    const answer = await post(request(server.baseUrl));
    expect(await answer.read()).toBe('data: [DONE]\n\n');
    const freed = once(agents.http, 'free');
    await answer.cancel();
    await freed;
    await (await post(request(server.baseUrl))).cancel();
    expect(server.connections()).toBe(1);
  });

  it('closes the connection of an answer given up that goes on past the grace', async () => {
    let closed!: () => void;
    const serverSawClose = new Promise<void>((resolve) => (closed = resolve));
    const server = await serve(async (_request, response) => {
      response.on('close', closed);
      beginEventStream(response);
      await writePiece(response, 'data: more to come\n\n');
    });
    const endless = await client({ drainGraceMs: 50 })(request(server.baseUrl));
    expect(await endless.read()).toBe('data: more to come\n\n');
    await endless.cancel();
    await serverSawClose;
    await expect(endless.read()).rejects.toThrow();
  });

  it('fails the read with ECONNRESET when the server breaks the connection mid-stream', async () => {
    const server = await serve(async (_request, response, raw) => {
      beginEventStream(response);
      await writePiece(response, 'data: partial\n\n');
      raw.socket.destroy();
    });
    const response = await client()(request(server.baseUrl));
    await expect(response.text()).rejects.toMatchObject({ code: 'ECONNRESET' });
  });

  it('fails the read with ECONNRESET, not a decoder error, when a compressed stream breaks off', async () => {
    let breakOff!: () => void;
    const broken = new Promise<void>((resolve) => (breakOff = resolve));
    const server = await serve(async (_request, response, raw) => {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
      const gzip = createGzip();
      gzip.pipe(response);
      gzip.write('data: one\n\n');
      gzip.flush(constants.Z_SYNC_FLUSH);
      await broken;
      raw.socket.destroy();
    });
    const response = await client()(request(server.baseUrl));
    expect(await response.read()).toBe('data: one\n\n');
    breakOff();
    await expect(response.read()).rejects.toMatchObject({ code: 'ECONNRESET' });
  });

  it('rejects with ECONNREFUSED when nothing listens, and ENOTFOUND for a name that does not resolve', async () => {
    unresolvableInvalidNames();
    const gone = await serve(() => undefined);
    await gone.close();
    const post = client();
    await expect(post(request(gone.baseUrl))).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await expect(post(request('http://no-such-host.invalid/v1'))).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });

  it('refuses a URL with credentials in it, as fetch does, without sending anything', async () => {
    await expect(client()(request('http://me:secret@127.0.0.1:9/v1'))).rejects.toThrow(
      'a URL with credentials in it is refused: http://me:secret@127.0.0.1:9/v1',
    );
  });

  it('follows a 307 or 308 with the same method and body, and drops authorization when it leaves the origin', async () => {
    const elsewhere = await serve((_request, response) => void response.end('moved here'));
    const server = await serve((recorded, response) => {
      const to = recorded.url.endsWith('/old') ? `${server.baseUrl}/new` : `${elsewhere.baseUrl}/there`;
      if (recorded.url.endsWith('/new')) return void response.writeHead(308, { location: to }).end();
      if (recorded.url.endsWith('/old')) return void response.writeHead(307, { location: to }).end();
    });
    const answer = await client()(request(`${server.baseUrl}/old`, { headers: { authorization: 'Bearer k' } }));
    expect(await answer.text()).toBe('moved here');
    expect(server.requests.map((recorded) => [recorded.url, recorded.body, recorded.headers.authorization])).toEqual([
      ['/v1/old', { hello: 'wörld' }, 'Bearer k'],
      ['/v1/new', { hello: 'wörld' }, 'Bearer k'],
    ]);
    expect(
      elsewhere.requests.map((recorded) => [recorded.method, recorded.body, recorded.headers.authorization]),
    ).toEqual([['POST', { hello: 'wörld' }, undefined]]);
  });

  it('answers a 301 as it is: a POST is not turned into a GET', async () => {
    const server = await serve((_request, response) => void response.writeHead(301, { location: '/elsewhere' }).end());
    expect((await client()(request(server.baseUrl))).status).toBe(301);
    expect(server.requests).toHaveLength(1);
  });
});

describe('the built-in HTTP client over TLS', () => {
  let certificates: TestCertificates;
  beforeAll(async () => {
    certificates = await makeTestCertificates();
  });

  it('streams from a server whose certificate a trusted CA signed', async () => {
    const server = await serve((_request, response) => void response.end('data: secure\n\n'), certificates);
    const post = client({ ca: certificates.ca });
    expect(await (await post(request(server.baseUrl))).text()).toBe('data: secure\n\n');
    expect(await (await post(request(server.baseUrl))).text()).toBe('data: secure\n\n');
    expect(server.connections()).toBe(1);
  });

  it('refuses a server whose certificate no trusted CA signed', async () => {
    const server = await serve((_request, response) => void response.end('never'), certificates);
    await expect(client({ ca: certificates.otherCa })(request(server.baseUrl))).rejects.toMatchObject({
      code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    });
    await expect(client()(request(server.baseUrl))).rejects.toMatchObject({
      code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    });
  });

  it('gives up on a connection whose handshake does not finish within the connect timeout', async () => {
    // Takes the TCP connection, reads the client's hello and never says a word of TLS.
    const silent = createTcpServer((socket) => socket.resume());
    const port = await listening(silent);
    const silentClosed = closedConnections(silent as unknown as Server, 1);
    await expect(client({ connectTimeoutMs: 50 })(request(`https://127.0.0.1:${port}/v1`))).rejects.toMatchObject({
      code: 'ETIMEDOUT',
      message: 'connect timed out after 0.05 s',
    });
    await silentClosed;
  });
});
