import { afterEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { SessionDirectory } from '@pi/session-directory';
import { TRANSPORTS, eventually, remoteErrorOf } from '@pi/test-support';
import { createRpcClient, loopbackFactory, type RpcClient } from '@pi/transport-trpc';
import { RED, RED_OTHER, SELF, startChain, type Chain, type ChainOptions, type Presentation } from './chain';

describe.each(TRANSPORTS)('a coordinator that goes away and comes back, over %s', (kind) => {
  let running: Chain | undefined;
  const start = async (options: ChainOptions) => (running = await startChain(kind, options));
  let sideChannel: RpcClient | undefined;
  afterEach(async () => {
    sideChannel?.close();
    await running?.close();
    [running, sideChannel] = [undefined, undefined];
  });

  it('leaves presentations connected with the last list, marked stale; changes fail with unavailable', async () => {
    const chain = await start({ presentations: 2 });
    const live = (p: Presentation) =>
      p.picker.state.value.upstream === 'connected' && p.picker.state.value.sessions.length === 2;
    await eventually(() => chain.presentations.every(live));
    const before = chain.presentations.map((p) => p.picker.state.value.sessions);

    await chain.coordinatorServed.stop();
    await eventually(() => chain.presentations.every((p) => p.picker.state.value.upstream === 'disconnected'));
    for (const [index, { client, picker }] of chain.presentations.entries()) {
      expect(client.connection.value.status).toBe('connected');
      expect(picker.state.value.sessions).toEqual(before[index]);
      expect((await remoteErrorOf(picker.create({ title: 'while away' }, BACKGROUND_CONTEXT))).code).toBe(
        'unavailable',
      );
      expect((await remoteErrorOf(picker.remove(RED_OTHER, BACKGROUND_CONTEXT))).code).toBe('unavailable');
      expect((await remoteErrorOf(picker.resume(RED_OTHER, BACKGROUND_CONTEXT))).code).toBe('unavailable');
    }
    // Nothing of the failed calls reached the records.
    expect(await chain.repo.list()).toHaveLength(3);
  });

  it('re-hydrates by itself once the coordinator is back, with what changed meanwhile', async () => {
    const chain = await start({ presentations: 2 });
    const [first] = chain.presentations as [Presentation];
    await eventually(
      () => first.picker.state.value.upstream === 'connected' && first.picker.state.value.sessions.length === 2,
    );

    await chain.coordinatorServed.stop();
    await eventually(() => first.picker.state.value.upstream === 'disconnected');
    // Meanwhile the fleet moves on: the user creates a session (over a channel the outage does not cut) and a
    // neighbour gets a presentation.
    sideChannel = createRpcClient({
      socketFactory: loopbackFactory(chain.coordinator.rpc),
      connectionParams: { token: chain.userToken },
      reconnect: false,
    });
    const directory = await sideChannel.use(SessionDirectory);
    const created = await directory.create(
      { title: 'made while away', workspaceId: RED, cwd: '/projects/red' },
      BACKGROUND_CONTEXT,
    );
    chain.processes.presentations(RED_OTHER, 1);
    expect(first.picker.state.value.sessions.some((s) => s.sessionId === created.sessionId)).toBe(false);

    await chain.coordinatorServed.restore();
    const caughtUp = (p: Presentation) => {
      const { upstream, sessions } = p.picker.state.value;
      return (
        upstream === 'connected' &&
        sessions.some((s) => s.sessionId === created.sessionId && s.title === 'made while away') &&
        sessions.some((s) => s.sessionId === RED_OTHER && s.status === 'active')
      );
    };
    await eventually(() => chain.presentations.every(caughtUp));
    expect(first.picker.state.value.sessions.find((s) => s.sessionId === SELF)?.isCurrent).toBe(true);
    // And changes work again.
    const again = await first.picker.create({ title: 'after the outage' }, BACKGROUND_CONTEXT);
    expect(again).toMatchObject({ title: 'after the outage', status: 'idle', isCurrent: false });
  });
});
