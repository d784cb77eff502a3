import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { SessionPresence } from '@pi/coordinator-api';
import { sessionCredentials } from '@pi/host-coordinator';
import { SessionDirectory } from '@pi/session-directory';
import { TRANSPORTS, eventually, remoteErrorOf } from '@pi/test-support';
import { CLOSE_CODES, NOT_AUTHORIZED_REASON, type SocketFactory } from '@pi/transport-trpc';
import {
  BLUE,
  BLUE_ONE,
  RED,
  RED_OTHER,
  SELF,
  startChain,
  type Chain,
  type ChainOptions,
  type Presentation,
} from './chain';

const ids = (sessions: readonly { sessionId: string }[]) => sessions.map((s) => s.sessionId).sort();

describe.each(TRANSPORTS)('the coordinator as the authority over %s', (kind) => {
  let running: Chain | undefined;
  const start = async (options: ChainOptions) => (running = await startChain(kind, options));
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  it('refuses cross-workspace calls from a misbehaving session host, and sends it only its workspace', async () => {
    const chain = await start({ presentations: 0 });
    // A compromised session process: its own credential, but calls no picker would make.
    const forged = chain.connectCoordinator(chain.credentials.issue({ sessionId: SELF, workspaceId: RED }));
    const directory = await forged.client.use(SessionDirectory);
    expect(ids(directory.state.value.sessions)).toEqual([RED_OTHER, SELF].sort());

    const refused = [
      directory.create({ title: 'planted', workspaceId: BLUE }, BACKGROUND_CONTEXT),
      directory.create({ title: 'planted', workspaceId: RED, cwd: '/projects/blue' }, BACKGROUND_CONTEXT),
      directory.remove(BLUE_ONE, BACKGROUND_CONTEXT),
      directory.resume(BLUE_ONE, BACKGROUND_CONTEXT),
    ];
    for (const call of refused) expect((await remoteErrorOf(call)).code).toBe('not_authorized');
    expect(ids(await chain.repo.list())).toEqual([BLUE_ONE, RED_OTHER, SELF].sort());
    expect(chain.processes.calls.filter((call) => call.op === 'start' || call.op === 'stop')).toEqual([]);

    // Changes in the other workspace never reach this connection either.
    const user = chain.connectCoordinator(chain.userToken);
    const everything = await user.client.use(SessionDirectory);
    await everything.create({ title: 'blue secret two', workspaceId: BLUE, cwd: '/projects/blue' }, BACKGROUND_CONTEXT);
    await everything.remove(BLUE_ONE, BACKGROUND_CONTEXT);
    await everything.create({ title: 'red marker', workspaceId: RED, cwd: '/projects/red' }, BACKGROUND_CONTEXT);
    await eventually(() => directory.state.value.sessions.some((s) => s.title === 'red marker'));
    // (Its refused calls' errors echo the id it sent; no frame carries a blue record.)
    for (const secret of [BLUE, '/projects/blue', 'blue secret']) {
      expect(forged.frames.filter((frame) => frame.includes(secret))).toEqual([]);
    }
  });

  it('refuses a forged or stale credential when it connects', async () => {
    const chain = await start({ presentations: 0 });
    const valid = chain.credentials.issue({ sessionId: SELF, workspaceId: RED });
    const tampered = `${valid.slice(0, -2)}${valid.endsWith('AA') ? 'BB' : 'AA'}`;
    const forgedClaims = `${Buffer.from(JSON.stringify({ sessionId: BLUE_ONE, workspaceId: BLUE })).toString('base64url')}.${valid.split('.')[1]}`;
    const otherSecret = sessionCredentials(randomBytes(32)).issue({ sessionId: SELF, workspaceId: RED });
    const noRecord = chain.credentials.issue({ sessionId: 'ghost', workspaceId: RED });
    const wrongWorkspace = chain.credentials.issue({ sessionId: BLUE_ONE, workspaceId: RED });
    for (const token of [tampered, forgedClaims, otherSecret, noRecord, wrongWorkspace, 'not-a-credential']) {
      const refused = chain.connectCoordinator(token, { reconnect: false });
      expect((await remoteErrorOf(refused.client.whenConnected())).code, token).toBe('not_authorized');
      expect(refused.client.connection.value).toMatchObject({ status: 'disconnected', retrying: false });
      // On the wire: the refusal frame, then the host's own close with 4401 (our client closes first when it
      // can, so a bare socket that waits is what shows the host's close).
      const bare = await presentToken(chain.coordinatorServed.socketFactory, token);
      const [refusal, ...after] = bare.frames as [string, ...string[]];
      expect(after, token).toEqual([]);
      expect(JSON.parse(refusal)).toMatchObject({ id: null, error: expect.anything() });
      expect(refusal).toContain('"not_authorized"');
      expect(bare.closed, token).toEqual({ code: CLOSE_CODES.notAuthorized, reason: NOT_AUTHORIZED_REASON });
    }
    // None of them left a connection behind: only the session's own remains.
    await eventually(() => chain.coordinator.rpc.stats().length === 1);
    expect(chain.coordinator.rpc.stats()).toEqual([{ activeCalls: 0, subscriptions: 1, references: 0 }]);
  });

  it('lets the local user see every workspace’s records', async () => {
    const chain = await start({ presentations: 0 });
    const user = chain.connectCoordinator(chain.userToken);
    const directory = await user.client.use(SessionDirectory);
    expect(ids(directory.state.value.sessions)).toEqual([BLUE_ONE, RED_OTHER, SELF].sort());
    expect(directory.state.value.sessions.find((s) => s.sessionId === BLUE_ONE)).toMatchObject({
      workspaceId: BLUE,
      cwd: '/projects/blue',
      ownerId: 'someone',
    });
  });

  it('takes presence reports from the session’s own connection only', async () => {
    const chain = await start({ presentations: 1 });
    const [{ picker }] = chain.presentations as [Presentation];
    const presence = await chain.upstream.use(SessionPresence);
    await presence.report({ presentations: 1 }, BACKGROUND_CONTEXT);
    // The report says the session is ready (connected) and how many presentations it serves.
    const reported = () =>
      chain.processes.calls.filter((call) => call.op === 'connected' || call.op === 'presentations');
    expect(reported()).toEqual([
      { op: 'connected', sessionId: SELF },
      { op: 'presentations', sessionId: SELF, count: 1 },
    ]);
    await eventually(() => picker.state.value.sessions.some((s) => s.sessionId === SELF && s.status === 'active'));

    const user = chain.connectCoordinator(chain.userToken);
    const fromUser = await user.client.use(SessionPresence);
    expect((await remoteErrorOf(fromUser.report({ presentations: 0 }, BACKGROUND_CONTEXT))).code).toBe(
      'not_authorized',
    );
    expect(reported()).toHaveLength(2);
  });
});

/** Opens a bare socket, presents `token` and waits: every frame the host sends, and how it closes. */
function presentToken(
  socketFactory: SocketFactory,
  token: string,
): Promise<{ frames: string[]; closed: { code: number; reason: string } }> {
  return new Promise((resolve) => {
    const frames: string[] = [];
    const socket = socketFactory();
    socket.onOpen(() => socket.send(JSON.stringify({ method: 'connectionParams', data: { token } })));
    socket.onMessage((data) => frames.push(data));
    socket.onClose((code, reason) => resolve({ frames, closed: { code, reason } }));
  });
}
