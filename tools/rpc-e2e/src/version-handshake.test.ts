import { afterEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { InteractionBroker, RemoteError, ServiceRegistry } from '@pi/remote';
import {
  PROTOCOL_VERSION,
  VERSION_MISMATCH,
  createRpcClient,
  createRpcHost,
  tokenAuthentication,
  type HostHello,
  type RpcClient,
  type RpcConnectionOptions,
} from '@pi/transport-trpc';
import {
  Probe,
  TRANSPORTS,
  createProbe,
  openRawChannel,
  remoteErrorOf,
  serveHost,
  type HostTransport,
} from '@pi/test-support';

const HELLO: HostHello = { pluginApi: '2.0', plugins: [{ id: '@pi/chat', apiVersion: '2.0' }] };

describe.each(TRANSPORTS)('the version handshake over %s', (kind) => {
  let served: HostTransport | undefined;
  let client: RpcClient | undefined;
  afterEach(async () => {
    client?.close();
    await served?.close();
    [client, served] = [undefined, undefined];
  });

  async function connect(options: Pick<RpcConnectionOptions, 'protocol' | 'acceptHost'> = {}) {
    const registry = new ServiceRegistry();
    registry.provide(Probe, createProbe());
    const host = createRpcHost({
      registry,
      broker: new InteractionBroker(),
      authenticate: tokenAuthentication('t', { principal: 'user', claims: {} }),
      keepAlive: false,
      hello: HELLO,
    });
    served = await serveHost(kind, host);
    client = createRpcClient({
      socketFactory: served.socketFactory,
      connectionParams: { token: 't' },
      reconnect: { minDelayMs: 1, maxDelayMs: 1 },
      ...options,
    });
    return client;
  }

  it('answers the hello with the protocol, the plugin API and the plugins the host runs', async () => {
    const connected = await connect();
    await connected.whenConnected();
    expect(connected.host).toMatchObject({ protocol: PROTOCOL_VERSION, ...HELLO });
    expect(await (await connected.use(Probe)).echo('after the hello', BACKGROUND_CONTEXT)).toBe('after the hello');
  });

  it('refuses a client of another protocol major with one line naming both, and it does not retry', async () => {
    const connected = await connect({ protocol: '9.0' });
    const refusal = await connected.whenConnected().catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(RemoteError);
    expect(refusal).toMatchObject({
      code: VERSION_MISMATCH,
      message: `the host speaks pi protocol ${PROTOCOL_VERSION}, this pi speaks 9.0`,
    });
    expect(connected.connection.value).toMatchObject({ status: 'disconnected', retrying: false });
    expect(served?.attempts).toBe(1);
    await expect(connected.use(Probe)).rejects.toMatchObject({ code: VERSION_MISMATCH });
  });

  it('accepts a client of the same major and another minor', async () => {
    const [major] = PROTOCOL_VERSION.split('.');
    const connected = await connect({ protocol: `${major}.99` });
    await connected.whenConnected();
    expect(connected.host?.protocol).toBe(PROTOCOL_VERSION);
  });

  it('lets the client refuse what the host runs, with its own line, and not retry', async () => {
    const connected = await connect({
      acceptHost: (hello) =>
        hello.pluginApi === '3.0' ? null : `the host runs plugin API ${hello.pluginApi}, this pi 3.0`,
    });
    await expect(connected.whenConnected()).rejects.toMatchObject({
      code: VERSION_MISMATCH,
      message: 'the host runs plugin API 2.0, this pi 3.0',
    });
    expect(served?.attempts).toBe(1);
  });

  it('answers a hello whose input is not a declaration (a stock client, garbage) as before the handshake', async () => {
    await connect();
    using raw = await openRawChannel((served as HostTransport).socketFactory, { token: 't' });
    for (const input of [null, { protocol: 5 }, { protocol: 'one' }, ['x'], 'hello'])
      expect(await raw.mutate('$rpc.hello', input)).toMatchObject({ protocol: PROTOCOL_VERSION });
    expect(await remoteErrorOf(raw.mutate('$rpc.hello', { protocol: '9.0' }))).toMatchObject({
      code: VERSION_MISMATCH,
      message: `the host speaks pi protocol ${PROTOCOL_VERSION}, this pi speaks 9.0`,
    });
  });
});
