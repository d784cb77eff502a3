import { afterEach, describe, expect, it } from 'vitest';
import { err, ok } from 'neverthrow';
import { ServiceRegistry } from '@pi/remote';
import { createRpcClient, type RpcClient } from './rpc-client';
import { createRpcHost } from './rpc-host';
import { makeTestCertificates, type TestCertificates } from './testing/test-certificates';
import { CERTIFICATE_NOT_TRUSTED, webSocketFactory } from './websocket-client';
import { listenWebSocket, type WebSocketListener } from './websocket-server';

const TOKEN = 'the-deployment-token';

/** A host that admits only the token. */
const host = () =>
  createRpcHost({
    registry: new ServiceRegistry(),
    authenticate: (params) =>
      params?.['token'] === TOKEN ? ok({ principal: 'remote', claims: {} }) : err('Wrong token'),
    keepAlive: false,
  });

/** Resolves with the first settled connection state: connected, or disconnected with its reason. */
function settled(client: RpcClient): Promise<string> {
  return new Promise((resolve) => {
    const check = () => {
      const state = client.connection.value;
      if (state.status === 'connected') resolve('connected');
      if (state.status === 'disconnected') resolve(`disconnected: ${state.reason.message}`);
    };
    client.connection.subscribe(check);
    check();
  });
}

describe('listenWebSocket over TLS on TCP', () => {
  let certificates: TestCertificates | undefined;
  const listeners: WebSocketListener[] = [];
  const clients: RpcClient[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    for (const listener of listeners.splice(0)) await listener.close();
  });

  async function serve(): Promise<WebSocketListener> {
    certificates ??= await makeTestCertificates();
    const listened = await listenWebSocket(host(), {
      port: 0,
      host: '127.0.0.1',
      tls: { cert: certificates.cert, key: certificates.key },
    });
    listeners.push(listened._unsafeUnwrap());
    return listened._unsafeUnwrap();
  }

  function connect(url: string, token: string, ca: string | undefined): RpcClient {
    const client = createRpcClient({
      socketFactory: webSocketFactory({ url }, ca === undefined ? {} : { ca }),
      connectionParams: { token },
      reconnect: false,
    });
    clients.push(client);
    return client;
  }

  it('serves wss: to a client that trusts its CA and presents the token', async () => {
    const listener = await serve();
    expect(listener.url).toMatch(/^wss:\/\/127\.0\.0\.1:\d+\/$/);
    expect(await settled(connect(listener.url, TOKEN, certificates?.ca))).toBe('connected');
  });

  it('refuses a wrong token over TLS, and a client that trusts another CA never gets to send one', async () => {
    const listener = await serve();
    expect(await settled(connect(listener.url, 'guessed', certificates?.ca))).toMatch(/^disconnected: /);
    const untrusting = await settled(connect(listener.url, TOKEN, certificates?.otherCa));
    expect(untrusting).toMatch(
      new RegExp(`^disconnected: The connection closed: ${CERTIFICATE_NOT_TRUSTED} \\(.+\\)$`),
    );
    expect(await settled(connect(listener.url, TOKEN, undefined))).toContain(CERTIFICATE_NOT_TRUSTED);
  });

  it('says a certificate and key it cannot use are the reason it did not listen', async () => {
    const listened = await listenWebSocket(host(), { port: 0, tls: { cert: 'not a certificate', key: 'nor a key' } });
    expect(listened._unsafeUnwrapErr()).toMatchObject({
      code: 'listen_failed',
      message: expect.stringMatching(/^Cannot use the TLS certificate and key: /),
    });
  });
});
