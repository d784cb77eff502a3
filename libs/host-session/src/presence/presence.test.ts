import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { BACKGROUND_CONTEXT, Presence, type PresenceEntry } from '@pi/plugin-api';
import { TRANSPORTS, eventually, remoteErrorOf } from '@pi/test-support';
import { createRpcClient, type SocketFactory } from '@pi/transport-trpc';
import { TEST_SESSION_TOKEN, startTestSessionHost, type TestSessionHost } from '../testing';

const fixtures: TestSessionHost[] = [];
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((fixture) => fixture.close()));
});

async function start(
  transport: (typeof TRANSPORTS)[number],
  options: { directory?: string; keepAlive?: boolean } = {},
) {
  const fixture = await startTestSessionHost({
    transport,
    facets: [],
    ...(options.directory === undefined ? {} : { directory: options.directory }),
    ...(options.keepAlive === true ? { keepAlive: { pingMs: 50, pongWaitMs: 50 } } : {}),
  });
  fixtures.push(fixture);
  return fixture;
}

const kinds = (attached: readonly PresenceEntry[]) => attached.map(({ kind, name }) => `${kind}:${name}`).sort();

/** Sockets that can be frozen: from then on nothing is sent or heard, as with a client whose machine went away. */
function freezable(factory: SocketFactory) {
  let frozen = false;
  const socketFactory: SocketFactory = () => {
    const socket = factory();
    return {
      ...socket,
      send: (data) => (frozen ? undefined : socket.send(data)),
      close: (code, reason) => socket.close(code, reason),
      onOpen: (listener) => socket.onOpen(listener),
      onClose: (listener) => socket.onClose(listener),
      onMessage: (listener) => socket.onMessage((data) => (frozen ? undefined : listener(data))),
    };
  };
  return { socketFactory, freeze: () => (frozen = true) };
}

describe.each(TRANSPORTS)('presence over %s', (transport) => {
  it('lists every attached client with the kind and name it announced, and drops one that closes', async () => {
    const fixture = await start(transport);
    const alice = await fixture.connect();
    const bob = await fixture.connect();
    const seenByAlice = await alice.use(Presence);
    await (await alice.use(Presence)).announce('tui', 'alice@laptop', BACKGROUND_CONTEXT);
    await (await bob.use(Presence)).announce('cli', 'bob@desk', BACKGROUND_CONTEXT);
    await eventually(() => kinds(seenByAlice.attached.value).join() === 'cli:bob@desk,tui:alice@laptop');
    expect(seenByAlice.attached.value.map((entry) => entry.clientId)).toEqual([
      alice.host?.clientId,
      bob.host?.clientId,
    ]);

    bob.close();
    await eventually(() => seenByAlice.attached.value.length === 1);
    expect(kinds(seenByAlice.attached.value)).toEqual(['tui:alice@laptop']);
  });

  it('shows a client that has not announced itself as a plain client', async () => {
    const fixture = await start(transport);
    const client = await fixture.connect();
    const presence = await client.use(Presence);
    await eventually(() => presence.attached.value.length === 1);
    expect(presence.attached.value[0]).toMatchObject({ clientId: client.host?.clientId, kind: 'client', name: '' });
  });

  it('drops a client that dies without closing once the keep-alive gives up on it', async () => {
    const fixture = await start(transport, { keepAlive: true });
    const watcher = await fixture.connect();
    const presence = await watcher.use(Presence);
    const doomed = freezable(fixture.socketFactory);
    const client = createRpcClient({
      socketFactory: doomed.socketFactory,
      connectionParams: { token: TEST_SESSION_TOKEN },
      reconnect: false,
      heartbeat: false,
    });
    onTestFinished(() => client.close());
    await client.whenConnected();
    await (await client.use(Presence)).announce('tui', 'gone@away', BACKGROUND_CONTEXT);
    await eventually(() => kinds(presence.attached.value).includes('tui:gone@away'));

    doomed.freeze();
    await eventually(() => presence.attached.value.length === 1);
    expect(presence.attached.value[0]?.clientId).toBe(watcher.host?.clientId);
  });

  it('is never restored: a restarted session lists only the clients attached to it', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'pi-presence-'));
    onTestFinished(() => rm(directory, { recursive: true, force: true }));
    const first = await start(transport, { directory });
    await (await (await first.connect()).use(Presence)).announce('tui', 'before@restart', BACKGROUND_CONTEXT);
    fixtures.splice(fixtures.indexOf(first), 1);
    await first.close();

    const second = await start(transport, { directory });
    const client = await second.connect();
    const presence = await client.use(Presence);
    await eventually(() => presence.attached.value.length === 1);
    expect(kinds(presence.attached.value)).toEqual(['client:']);
  });

  it('refuses an announcement whose kind or name breaks the contract', async () => {
    const fixture = await start(transport);
    const presence = await (await fixture.connect()).use(Presence);
    expect(await remoteErrorOf(presence.announce('Not A Kind', 'x', BACKGROUND_CONTEXT))).toMatchObject({
      code: 'invalid_argument',
    });
    expect(await remoteErrorOf(presence.announce('tui', 'n'.repeat(101), BACKGROUND_CONTEXT))).toMatchObject({
      code: 'invalid_argument',
    });
  });
});
