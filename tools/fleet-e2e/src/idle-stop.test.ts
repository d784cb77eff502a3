import { afterEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { SessionPresence } from '@pi/coordinator-api';
import { modelProviderFacet, type TestFacet } from '@pi/host-session/testing';
import type { AgentLanePluginView, ModelProvider } from '@pi/plugin-api';
import { SessionDirectory, type SessionDirectoryService } from '@pi/session-directory';
import { TRANSPORTS, eventually } from '@pi/test-support';
import { RED, RED_OTHER, SELF, startChain, type Chain, type Presentation } from './chain';

/** Tiny, so a test waits on the status change instead of a clock. */
const IDLE_MS = 50;

describe.each(TRANSPORTS)('idle session processes over %s', (kind) => {
  let running: Chain | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  /** Each run of the session's model waits until the test lets it answer. */
  let answer = deferred();
  const provider: ModelProvider = {
    id: 'held',
    name: 'Held',
    models: () => [{ provider: 'held', modelId: 'one', name: 'one', reasoning: false }],
    async *stream() {
      await answer.promise;
      yield { type: 'text_delta', delta: 'done' };
      yield { type: 'done', stopReason: 'stop' };
    },
  };
  let lane: AgentLanePluginView | undefined;
  const sessionFacets: TestFacet[] = [
    { id: '@test/model', facet: modelProviderFacet(provider) },
    { id: '@test/driver', facet: (context) => void (lane = context.agent.main) },
  ];

  /** The chain, its session reporting presence to a coordinator that stops idle sessions; the user's directory. */
  const start = async (presentations: number) => {
    answer = deferred();
    const chain = (running = await startChain(kind, {
      presentations,
      sessionFacets,
      reportsPresence: true,
      idleStopMs: IDLE_MS,
    }));
    const directory = await chain.connectCoordinator(chain.userToken).client.use(SessionDirectory);
    return { chain, directory };
  };
  const statusOf = (directory: SessionDirectoryService, sessionId: string) =>
    directory.state.value.sessions.find((session) => session.sessionId === sessionId)?.status;
  /** Another session of the workspace says it is idle: the coordinator starts its period now, after SELF's. */
  const idleNeighbour = async (chain: Chain) => {
    const token = chain.credentials.issue({ sessionId: RED_OTHER, workspaceId: RED });
    const presence = await chain.connectCoordinator(token).client.use(SessionPresence);
    await presence.report({ presentations: 0, busy: false }, BACKGROUND_CONTEXT);
  };
  const stopsOf = (chain: Chain, sessionId: string) =>
    chain.processes.calls.filter((call) => call.op === 'stop' && call.sessionId === sessionId);

  it('stops a session with no client and no run once it has been idle; its record stays, closed', async () => {
    const { chain, directory } = await start(0);
    await eventually(() => statusOf(directory, SELF) === 'closed');
    expect(stopsOf(chain, SELF)).toHaveLength(1);
    expect(await chain.repo.get(SELF)).toMatchObject({ status: 'closed', title: 'this session' });
    // Resumed on demand: started again, through the same directory.
    expect((await directory.resume(SELF, BACKGROUND_CONTEXT)).status).toBe('idle');
  });

  it('never stops a session with a client attached', async () => {
    const { chain, directory } = await start(1);
    await eventually(() => statusOf(directory, SELF) === 'active');
    // Had SELF been counting, its period (started first, as long) would have ended before the neighbour's.
    await idleNeighbour(chain);
    await eventually(() => statusOf(directory, RED_OTHER) === 'closed');
    expect(statusOf(directory, SELF)).toBe('active');
    expect(stopsOf(chain, SELF)).toEqual([]);
  });

  it('never stops a busy session its last client left; it stops once the run is done', async () => {
    const { chain, directory } = await start(1);
    const [presentation] = chain.presentations as [Presentation];
    await eventually(() => statusOf(directory, SELF) === 'active');
    const accepted = await lane?.prompt(
      [{ role: 'user', content: [{ type: 'text', text: 'go' }] }],
      BACKGROUND_CONTEXT,
    );
    if (accepted === undefined || accepted.isErr()) throw new Error('prompt refused');
    presentation.client.close();
    await eventually(() => statusOf(directory, SELF) === 'idle');
    await idleNeighbour(chain);
    await eventually(() => statusOf(directory, RED_OTHER) === 'closed');
    expect(statusOf(directory, SELF)).toBe('idle');

    answer.resolve();
    await lane?.settled(accepted.value.operationId);
    await eventually(() => statusOf(directory, SELF) === 'closed');
    expect(stopsOf(chain, SELF)).toHaveLength(1);
  });
});

/** A promise the test resolves. */
function deferred(): { promise: Promise<void>; resolve(): void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((settle) => (resolve = settle));
  return { promise, resolve: () => resolve() };
}
