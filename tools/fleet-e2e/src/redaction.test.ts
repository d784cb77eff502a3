import { afterEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { SessionDirectory } from '@pi/session-directory';
import { TRANSPORTS, eventually } from '@pi/test-support';
import { BLUE, BLUE_ONE, RED, RED_OTHER, SELF, startChain, type Chain, type ChainOptions } from './chain';

/** What only the upstream contract carries, and anything that would give the other workspace away. */
const UPSTREAM_ONLY = ['"ownerId"', '"cwd"', '"workspaceId"', '/projects/', RED, BLUE, BLUE_ONE, 'blue secret'];

describe.each(TRANSPORTS)('what reaches a presentation through the chain over %s', (kind) => {
  let running: Chain | undefined;
  const start = async (options: ChainOptions) => (running = await startChain(kind, options));
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  it('carry no upstream-only field and no other workspace’s record, through hydration, create, status change and remove', async () => {
    const chain = await start({ presentations: 1 });
    const [{ picker, frames }] = chain.presentations as [(typeof chain.presentations)[number]];
    await eventually(() => picker.state.value.sessions.length === 2 && picker.state.value.upstream === 'connected');
    expect(picker.state.value.sessions.map((s) => s.sessionId).sort()).toEqual([RED_OTHER, SELF].sort());

    const created = await picker.create({ title: 'fresh red' }, BACKGROUND_CONTEXT);
    chain.processes.presentations(RED_OTHER, 1); // a status change of a visible session
    chain.processes.presentations(BLUE_ONE, 1); // and of one the presentation may not see
    const user = chain.connectCoordinator(chain.userToken);
    const directory = await user.client.use(SessionDirectory);
    await directory.create({ title: 'blue secret too', workspaceId: BLUE, cwd: '/projects/blue' }, BACKGROUND_CONTEXT);
    await directory.remove(BLUE_ONE, BACKGROUND_CONTEXT);
    await picker.remove(created.sessionId, BACKGROUND_CONTEXT);
    await eventually(
      () =>
        picker.state.value.sessions.length === 2 &&
        picker.state.value.sessions.some((s) => s.sessionId === RED_OTHER && s.status === 'active'),
    );

    // The frames did carry the changes, so their absence below is not an empty log's.
    const text = frames.join('\n');
    expect(text).toContain('fresh red');
    expect(text).toContain('"active"');
    expect(text).toContain(created.sessionId);
    for (const forbidden of UPSTREAM_ONLY) {
      expect(
        frames.filter((frame) => frame.includes(forbidden)),
        forbidden,
      ).toEqual([]);
    }
  });
});
