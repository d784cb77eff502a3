import { afterEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT, withAbortSignal } from '@pi/context';
import {
  PROTOCOL_VERSION,
  createRpcClient,
  type RpcClient,
  type SocketFactory,
  type WireSocket,
} from '@pi/transport-trpc';
import { Probe, TRANSPORTS, eventually, remoteErrorOf, serveHost, type HostTransport } from '@pi/test-support';
import { connectionParamsFrame, sortServerFrames } from './fuzz-wire';
import { probeHost } from './probe-host';
import { serveRawSockets, type RawSocketServer } from './raw-socket';

const TOKEN = 't';

/** The host's hello answer rewritten to say protocol 1.1: a host built before compact calls. */
function asProtocol11(factory: SocketFactory): SocketFactory {
  return () => {
    const socket = factory();
    const onMessage = socket.onMessage.bind(socket);
    const older: WireSocket = Object.create(socket);
    older.onMessage = (listener) =>
      onMessage((data) => listener(data.replace(`"protocol":"${PROTOCOL_VERSION}"`, '"protocol":"1.1"')));
    return older;
  };
}

describe.each(TRANSPORTS)('compact calls over %s', (kind) => {
  let served: HostTransport | undefined;
  let rawServer: RawSocketServer | undefined;
  let client: RpcClient | undefined;
  afterEach(async () => {
    client?.close();
    await rawServer?.close();
    await served?.close();
    [client, served, rawServer] = [undefined, undefined, undefined];
  });

  async function connect(older = false) {
    const { host, log } = probeHost(TOKEN);
    served = await serveHost(kind, host);
    const socketFactory = older ? asProtocol11(served.socketFactory) : served.socketFactory;
    client = createRpcClient({ socketFactory, connectionParams: { token: TOKEN }, reconnect: false });
    await client.whenConnected();
    return { probe: await client.use(Probe), frames: served.frames, log };
  }

  /** A raw socket, authenticated, that has said hello: what it sends next is read as from a connected client. */
  async function rawSocket() {
    rawServer = await serveRawSockets(kind, probeHost(TOKEN).host);
    const socket = rawServer.open();
    await socket.opened;
    socket.sendText(connectionParamsFrame(TOKEN));
    socket.sendText(JSON.stringify([0, '$rpc.hello', [], 'hello']));
    await socket.until((frame) => frame.startsWith('[0,'));
    return socket;
  }

  it('a host of this protocol gets service calls as compact calls, and answers each in the same form', async () => {
    const { probe, frames } = await connect();
    expect(await probe.echo({ answer: [42, 'x'] }, BACKGROUND_CONTEXT)).toEqual({ answer: [42, 'x'] });
    expect(await probe.nothing(BACKGROUND_CONTEXT)).toBeUndefined();
    expect(frames.sent.filter((frame) => frame.startsWith('['))).toEqual([
      expect.stringMatching(/^\[\d+,"probe\.echo",\[\{"answer":\[42,"x"\]\}\],"\d+"\]$/),
      expect.stringMatching(/^\[\d+,"probe\.nothing",\[\],"\d+"\]$/),
    ]);
    expect(frames.received.filter((frame) => frame.startsWith('['))).toEqual([
      expect.stringMatching(/^\[\d+,0,\{"answer":\[42,"x"\]\}\]$/),
      expect.stringMatching(/^\[\d+,0\]$/),
    ]);
  });

  it('a host that speaks protocol 1.1 gets the same calls as tRPC mutations, with the same results', async () => {
    const { probe, frames } = await connect(true);
    expect(client?.host?.protocol).toBe('1.1');
    expect(await probe.echo({ answer: 42 }, BACKGROUND_CONTEXT)).toEqual({ answer: 42 });
    expect(await probe.nothing(BACKGROUND_CONTEXT)).toBeUndefined();
    expect(frames.sent.filter((frame) => frame.startsWith('['))).toEqual([]);
    expect(frames.sent.filter((frame) => /"method":"mutation","params":\{"path":"probe\./.test(frame))).toHaveLength(2);
  });

  it("a service's error, a broken result and a crash keep their codes, as over tRPC's frames", async () => {
    for (const older of [false, true]) {
      const { probe } = await connect(older);
      expect(await remoteErrorOf(probe.fail('busy', 'try later', BACKGROUND_CONTEXT))).toMatchObject({
        code: 'busy',
        message: 'try later',
      });
      expect(await remoteErrorOf(probe.badResult(BACKGROUND_CONTEXT))).toMatchObject({ code: 'invalid_result' });
      expect(await remoteErrorOf(probe.crash('secret detail', BACKGROUND_CONTEXT))).toMatchObject({
        code: 'internal',
        message: 'Internal error',
      });
      client?.close();
      await served?.close();
    }
  });

  it('a cancelled compact call aborts its server context, and the caller hears cancelled', async () => {
    const { probe, log } = await connect();
    const controller = new AbortController();
    const call = probe.block('held', withAbortSignal(controller.signal, BACKGROUND_CONTEXT));
    await eventually(() => log.started.includes('held'));
    controller.abort();
    expect(await remoteErrorOf(call)).toMatchObject({ code: 'cancelled' });
    await eventually(() => log.aborted.includes('held'));
  });

  it('calls in flight when the connection drops fail with disconnected', async () => {
    const { probe } = await connect();
    const failed = remoteErrorOf(probe.block('dropped', BACKGROUND_CONTEXT));
    await served?.stop();
    expect(await failed).toMatchObject({ code: 'disconnected' });
  });

  it('a compact call is checked as its tRPC form is: arguments, call id, unknown service or member', async () => {
    const socket = await rawSocket();
    const refusals: Array<[unknown[], string]> = [
      [[1, 'probe.echo', [1, 2], 'c1'], 'invalid_argument'],
      [[2, 'probe.echo', 'not an array', 'c2'], 'invalid_argument'],
      [[3, 'probe.echo', [1], 7], 'invalid_argument'],
      [[4, 'probe.echo', [1], 'c4', 'not a carrier', 'extra'], 'invalid_argument'],
      [[5, 'probe'], 'invalid_argument'],
      [[6, 'ghost.echo', [], 'c6'], 'unknown_service'],
      [[7, 'probe.missing', [], 'c7'], 'unknown_member'],
      [[8, 'probe.$watch', [], 'c8'], 'unknown_member'],
      [[9, '$rpc.describe', [], 'c9'], 'unknown_member'],
    ];
    for (const [frame] of refusals) socket.sendText(JSON.stringify(frame));
    await socket.until((frame) => frame.startsWith('[9,'));
    // Each is answered when its own check fails, not in the order sent.
    const replies = socket.received
      .filter((frame) => /^\[[1-9],/.test(frame))
      .map((frame) => JSON.parse(frame) as [number, ...unknown[]])
      .sort(([a], [b]) => a - b);
    expect(replies).toEqual(refusals.map(([[id], code]) => [id, 2, expect.objectContaining({ code })]));
    expect(sortServerFrames(socket.received).unexpected).toEqual([]);
  });

  it('an array whose id is not an integer is a malformed frame, answered with id null', async () => {
    const socket = await rawSocket();
    socket.sendText(JSON.stringify([1.5, 'probe.echo', [1], 'c']));
    const refusal = await socket.until((frame) => frame.startsWith('{"id":null'));
    expect(sortServerFrames([refusal]).errorCodes).toEqual(['invalid_argument']);
    socket.sendText(JSON.stringify([2, 'probe.echo', ['still served'], 'c2']));
    expect(await socket.until((frame) => frame.startsWith('[2,'))).toBe('[2,0,"still served"]');
  });

  it('a compact call right behind the connection params waits for the authentication; behind a wrong token it never runs', async () => {
    const { host, log } = probeHost(TOKEN);
    rawServer = await serveRawSockets(kind, host);
    const accepted = rawServer.open();
    await accepted.opened;
    accepted.sendText(connectionParamsFrame(TOKEN));
    accepted.sendText(JSON.stringify([1, 'probe.echo', ['right behind'], 'c1']));
    expect(await accepted.until((frame) => frame.startsWith('[1,'))).toBe('[1,0,"right behind"]');
    const refused = rawServer.open();
    await refused.opened;
    refused.sendText(connectionParamsFrame('wrong'));
    refused.sendText(JSON.stringify([2, 'probe.echo', ['never'], 'c2']));
    await refused.closed;
    expect(refused.received.filter((frame) => frame.startsWith('[2,') && !frame.startsWith('[2,2,'))).toEqual([]);
    expect(log.worked).toEqual(['echo']);
  });

  it('a compact call in place of the connection params is malformed params, as for tRPC: refused, closed, never run', async () => {
    const { host, log } = probeHost(TOKEN);
    rawServer = await serveRawSockets(kind, host);
    const socket = rawServer.open();
    await socket.opened;
    socket.sendText(JSON.stringify([1, 'probe.echo', [1], 'c1']));
    await socket.closed;
    expect(sortServerFrames(socket.received)).toEqual({
      repliesById: new Map([['null', 1]]),
      errorCodes: ['invalid_argument'],
      unexpected: [],
    });
    expect(log.worked).toEqual([]);
  });
});
