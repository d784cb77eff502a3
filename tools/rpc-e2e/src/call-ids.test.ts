import { afterEach, describe, expect, it } from 'vitest';
import { TRANSPORTS, eventually, type ProbeLog } from '@pi/test-support';
import { compactCallFrame, connectionParamsFrame } from './fuzz-wire';
import { probeHost } from './probe-host';
import { serveRawSockets, type RawSocket, type RawSocketServer } from './raw-socket';

const TOKEN = 't';

/**
 * A connection's calls in flight are known by the client's call ids: `$rpc.cancel` aborts the one named and no other,
 * and an id in use is refused. The host keeps a connection's one call in flight apart from the others (the common
 * case, a caller awaiting each call): these hold whichever of them a call is.
 */
describe.each(TRANSPORTS)('call ids of one connection over %s', (kind) => {
  let rawServer: RawSocketServer | undefined;
  afterEach(async () => {
    await rawServer?.close();
    rawServer = undefined;
  });

  /** A raw socket that has said hello to a host with the probe service, and what the probe saw. */
  async function connect(): Promise<{ socket: RawSocket; log: ProbeLog }> {
    const { host, log } = probeHost(TOKEN);
    rawServer = await serveRawSockets(kind, host);
    const socket = rawServer.open();
    await socket.opened;
    socket.sendText(connectionParamsFrame(TOKEN));
    socket.sendText(JSON.stringify([0, '$rpc.hello', [], 'hello']));
    await socket.until((frame) => frame.startsWith('[0,'));
    return { socket, log };
  }

  const reply = (socket: RawSocket, id: number) => socket.until((frame) => frame.startsWith(`[${id},`));
  const cancel = (socket: RawSocket, id: number, callId: string) =>
    socket.sendText(
      JSON.stringify({ id, method: 'mutation', params: { path: '$rpc.cancel', input: { json: { c: callId } } } }),
    );

  it('a cancel aborts only the call it names, the first in flight or one beside it, in any order', async () => {
    const { socket, log } = await connect();
    socket.sendText(compactCallFrame(1, 'probe.block', ['first'], 'x'));
    socket.sendText(compactCallFrame(2, 'probe.block', ['second'], 'y'));
    await eventually(() => log.started.length === 2);

    cancel(socket, 10, 'x');
    expect(await reply(socket, 1)).toMatch(/^\[1,2,\{"code":"cancelled"/);
    expect(log.aborted).toEqual(['first']);
    // A call made now, while 'y' is still in flight, is cancelled by its own id as well.
    socket.sendText(compactCallFrame(3, 'probe.block', ['third'], 'z'));
    await eventually(() => log.started.length === 3);
    cancel(socket, 11, 'y');
    expect(await reply(socket, 2)).toMatch(/^\[2,2,\{"code":"cancelled"/);
    expect(log.aborted).toEqual(['first', 'second']);
    cancel(socket, 12, 'z');
    expect(await reply(socket, 3)).toMatch(/^\[3,2,\{"code":"cancelled"/);
    expect(log.aborted).toEqual(['first', 'second', 'third']);
    cancel(socket, 13, 'nobody');
    await socket.until((frame) => frame.startsWith('{"id":13,'));
    expect(log.aborted).toHaveLength(3);
  });

  it('an id in use is refused, whether its call is alone in flight or beside another, and free once it ended', async () => {
    const { socket, log } = await connect();
    socket.sendText(compactCallFrame(1, 'probe.block', ['first'], 'x'));
    await eventually(() => log.started.length === 1);
    socket.sendText(compactCallFrame(2, 'probe.echo', ['again'], 'x'));
    expect(await reply(socket, 2)).toMatch(/^\[2,2,\{"code":"invalid_argument","message":"Duplicate call id"/);

    socket.sendText(compactCallFrame(3, 'probe.block', ['second'], 'y'));
    await eventually(() => log.started.length === 2);
    socket.sendText(compactCallFrame(4, 'probe.echo', ['again'], 'y'));
    expect(await reply(socket, 4)).toMatch(/^\[4,2,\{"code":"invalid_argument"/);
    socket.sendText(compactCallFrame(5, 'probe.echo', ['again'], 'x'));
    expect(await reply(socket, 5)).toMatch(/^\[5,2,\{"code":"invalid_argument"/);
    expect(log.aborted).toEqual([]);

    cancel(socket, 10, 'x');
    await reply(socket, 1);
    socket.sendText(compactCallFrame(6, 'probe.echo', ['reused'], 'x'));
    expect(await reply(socket, 6)).toBe('[6,0,"reused"]');
    cancel(socket, 11, 'y');
    await reply(socket, 3);
    socket.sendText(compactCallFrame(7, 'probe.echo', ['reused'], 'y'));
    expect(await reply(socket, 7)).toBe('[7,0,"reused"]');
  });

  it('a dropped connection aborts every call it had in flight', async () => {
    const { socket, log } = await connect();
    for (const [id, label] of ['a', 'b', 'c'].entries())
      socket.sendText(compactCallFrame(id + 1, 'probe.block', [label], label));
    await eventually(() => log.started.length === 3);
    socket.close();
    await eventually(() => log.aborted.length === 3);
    expect([...log.aborted].sort()).toEqual(['a', 'b', 'c']);
  });
});
