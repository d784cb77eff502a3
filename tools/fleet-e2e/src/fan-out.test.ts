import { afterEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import type { SessionPickerEvent } from '@pi/session-directory';
import { TRANSPORTS, eventually } from '@pi/test-support';
import { RED_OTHER, startChain, type Chain, type ChainOptions, type Presentation } from './chain';

describe.each(TRANSPORTS)('one upstream subscription for many presentations over %s', (kind) => {
  let running: Chain | undefined;
  const start = async (options: ChainOptions) => (running = await startChain(kind, options));
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  /** Every event each presentation receives, from now on. */
  function listen(presentations: readonly Presentation[]): SessionPickerEvent[][] {
    return presentations.map((presentation) => {
      const seen: SessionPickerEvent[] = [];
      presentation.picker.events.subscribe((event) => seen.push(event));
      return seen;
    });
  }

  const hydrated = (presentation: Presentation) =>
    presentation.picker.state.value.upstream === 'connected' && presentation.picker.state.value.sessions.length === 2;

  /** The coordinator's view: one connection (the session's), holding exactly one subscription. */
  const ONE_UPSTREAM_SUBSCRIPTION = [{ activeCalls: 0, subscriptions: 1, references: 0 }];

  it('fans one upstream subscription out to five presentations, each of which sees every change', async () => {
    const chain = await start({ presentations: 5 });
    const { presentations, processes, coordinator } = chain;
    await eventually(() => presentations.every(hydrated));
    expect(coordinator.rpc.stats()).toEqual(ONE_UPSTREAM_SUBSCRIPTION);
    const seen = listen(presentations);

    const [first, last] = [presentations[0], presentations[4]] as [Presentation, Presentation];
    const created = await first.picker.create({ title: 'for everyone' }, BACKGROUND_CONTEXT);
    processes.presentations(RED_OTHER, 1);
    await last.picker.remove(created.sessionId, BACKGROUND_CONTEXT);

    const sawAll = (events: readonly SessionPickerEvent[]) =>
      events.some((e) => e.type === 'created' && e.session.sessionId === created.sessionId) &&
      events.some((e) => e.type === 'changed' && e.session.sessionId === RED_OTHER && e.session.status === 'active') &&
      events.some((e) => e.type === 'deleted' && e.sessionId === created.sessionId);
    await eventually(() => seen.every(sawAll));
    for (const { picker } of presentations) {
      expect(picker.state.value.sessions.find((s) => s.sessionId === RED_OTHER)?.status).toBe('active');
      expect(picker.state.value.sessions.some((s) => s.sessionId === created.sessionId)).toBe(false);
    }

    // A presentation that comes late gets the whole list from the session's replica, without a new upstream watch.
    const late = await chain.present();
    await eventually(() => hydrated(late));
    expect(late.picker.state.value.sessions.find((s) => s.sessionId === RED_OTHER)?.status).toBe('active');
    expect(coordinator.rpc.stats()).toEqual(ONE_UPSTREAM_SUBSCRIPTION);
    expect(chain.session.rpc.stats()).toHaveLength(6);
  });

  it('keeps the upstream subscription when a presentation disconnects; the others still get every change', async () => {
    const chain = await start({ presentations: 3 });
    const [gone, ...staying] = chain.presentations as [Presentation, ...Presentation[]];
    await eventually(() => chain.presentations.every(hydrated));
    const seen = listen(staying);

    gone.client.close();
    await eventually(() => chain.session.rpc.stats().length === 2);
    expect(chain.coordinator.rpc.stats()).toEqual(ONE_UPSTREAM_SUBSCRIPTION);
    expect(chain.upstream.connection.value.status).toBe('connected');

    chain.processes.presentations(RED_OTHER, 1);
    await eventually(() =>
      seen.every((events) => events.some((e) => e.type === 'changed' && e.session.sessionId === RED_OTHER)),
    );
    for (const { picker } of staying) {
      expect(picker.state.value.sessions.find((s) => s.sessionId === RED_OTHER)?.status).toBe('active');
    }
    expect(chain.coordinator.rpc.stats()).toEqual(ONE_UPSTREAM_SUBSCRIPTION);
  });
});
