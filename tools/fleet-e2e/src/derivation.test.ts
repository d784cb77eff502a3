import { afterEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import {
  SessionDirectory,
  type SessionDirectoryState,
  type SessionPickerEntry,
  type SessionPickerEvent,
  type SessionPickerState,
} from '@pi/session-directory';
import { TRANSPORTS, eventually } from '@pi/test-support';
import { BLUE_ONE, RED, RED_OTHER, SELF, startChain, type Chain, type ChainOptions, type Presentation } from './chain';

/** The picker list an upstream state must project to: this workspace only, redacted, the current one marked. */
function expectedEntries(upstream: SessionDirectoryState): SessionPickerEntry[] {
  return upstream.sessions
    .filter((s) => s.workspaceId === RED)
    .map(({ sessionId, title, status, updatedAt }) => ({
      sessionId,
      title,
      status,
      updatedAt,
      isCurrent: sessionId === SELF,
    }));
}

/** The ids a list ends with when only the events are applied to it, in the order they came. */
function applyEvents(start: readonly string[], events: readonly SessionPickerEvent[]): string[] {
  const ids = new Set(start);
  for (const event of events) {
    if (event.type === 'deleted') ids.delete(event.sessionId);
    else ids.add(event.session.sessionId);
  }
  return [...ids].sort();
}

describe.each(TRANSPORTS)('downstream state derived from upstream state over %s', (kind) => {
  let running: Chain | undefined;
  const start = async (options: ChainOptions) => (running = await startChain(kind, options));
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  /*
   * The checkable form of "no state/event race": every picker state a presentation receives is exactly the
   * projection of the session's upstream replica at the same revision — never a list patched from events, which
   * run on their own stream. So (1) each downstream revision is one the upstream replica delivered, with the same
   * list projected; (2) revisions only move forward; (3) once quiet, both sides stand at the same revision; and
   * (4) the event stream on its own converges to the same list (events are complete, merely sequenced apart).
   */
  it('delivers, at every revision, exactly the projection of the upstream state of that revision', async () => {
    const chain = await start({ presentations: 2 });
    const replica = await chain.upstream.use(SessionDirectory); // the session facet's shared upstream proxy
    const upstreamAt = new Map<number, SessionPickerEntry[]>();
    replica.state.subscribe((value) => upstreamAt.set(value.revision, expectedEntries(value)));
    await eventually(() =>
      chain.presentations.every(
        (p) => p.picker.state.value.upstream === 'connected' && p.picker.state.value.revision > 0,
      ),
    );
    const initialIds = chain.presentations.map((p) => p.picker.state.value.sessions.map((s) => s.sessionId));
    const delivered = chain.presentations.map((p) => record(p));

    const [first, second] = chain.presentations as [Presentation, Presentation];
    const created = await Promise.all([
      first.picker.create({ title: 'burst one' }, BACKGROUND_CONTEXT),
      second.picker.create({ title: 'burst two' }, BACKGROUND_CONTEXT),
      first.picker.create({ title: 'burst three' }, BACKGROUND_CONTEXT),
    ]);
    chain.processes.presentations(RED_OTHER, 2);
    chain.processes.presentations(BLUE_ONE, 1); // upstream-invisible: this connection never hears of it
    chain.processes.presentations(RED_OTHER, 0);
    await Promise.all([
      second.picker.remove(created[0].sessionId, BACKGROUND_CONTEXT),
      first.picker.remove(created[2].sessionId, BACKGROUND_CONTEXT),
    ]);

    const settled = () => replica.state.value.revision;
    await eventually(() => chain.presentations.every((p) => p.picker.state.value.revision === settled()));
    for (const [index, { states, events }] of delivered.entries()) {
      expect(states.length).toBeGreaterThan(1);
      for (const state of states)
        expect(state.sessions, `revision ${state.revision}`).toEqual(upstreamAt.get(state.revision));
      const revisions = states.map((s) => s.revision);
      expect(revisions).toEqual([...revisions].sort((a, b) => a - b));
      const final = (chain.presentations[index] as Presentation).picker.state.value;
      expect(final.sessions).toEqual(expectedEntries(replica.state.value));
      await eventually(
        () =>
          applyEvents(initialIds[index] ?? [], events).join() ===
          final.sessions
            .map((s) => s.sessionId)
            .sort()
            .join(),
      );
    }
  });
});

/** Every state and event a presentation receives from now on. */
function record(presentation: Presentation): { states: SessionPickerState[]; events: SessionPickerEvent[] } {
  const states: SessionPickerState[] = [];
  const events: SessionPickerEvent[] = [];
  presentation.picker.state.subscribe((state) => states.push(state));
  presentation.picker.events.subscribe((event) => events.push(event));
  return { states, events };
}
