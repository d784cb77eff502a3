import { afterEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT, withTelemetryContext } from '@pi/context';
import { installInMemoryTelemetry, type FinishedSpan, type InMemoryTelemetry } from '@pi/context/testing';
import type { SessionPickerEvent } from '@pi/session-directory';
import { TRANSPORTS, abortableContext, eventually, remoteErrorOf } from '@pi/test-support';
import { startChain, type Chain, type ChainOptions, type Presentation } from './chain';

describe.each(TRANSPORTS)('a call across two hops over %s', (kind) => {
  let running: Chain | undefined;
  const start = async (options: ChainOptions) => (running = await startChain(kind, options));
  let telemetry: InMemoryTelemetry | undefined;
  afterEach(async () => {
    await running?.close();
    telemetry?.uninstall();
    [running, telemetry] = [undefined, undefined];
  });

  const live = (p: Presentation) => p.picker.state.value.upstream === 'connected' && p.picker.state.value.revision > 0;

  it('cancels the session’s call to the coordinator when the presentation aborts, leaving no record', async () => {
    const chain = await start({ presentations: 1, processes: 'hold' });
    const [presentation] = chain.presentations as [Presentation];
    const { picker } = presentation;
    await eventually(() => live(presentation));
    const { controller, context } = abortableContext();
    const cancelled = remoteErrorOf(picker.create({ title: 'never to be' }, context));
    // The coordinator has the record and is starting its process: the create is in flight on both hops.
    await eventually(() => chain.processes.held.length === 1);
    const [held] = chain.processes.held as [string];
    await eventually(() => picker.state.value.sessions.some((s) => s.sessionId === held));

    controller.abort();
    expect((await cancelled).code).toBe('cancelled');
    // The abort crossed both hops: the coordinator's start saw its call's context aborted, and stopped the
    // process it was starting.
    await eventually(() => chain.processes.calls.some((call) => call.op === 'stop' && call.sessionId === held));
    expect(chain.processes.calls.filter((call) => call.sessionId === held)).toEqual([
      { op: 'start', sessionId: held },
      { op: 'stop', sessionId: held, whileStarting: true },
    ]);
    await eventually(() => !picker.state.value.sessions.some((s) => s.sessionId === held));
    expect(await chain.repo.get(held)).toBeUndefined();
    expect(await chain.repo.list()).toHaveLength(3);
    await eventually(() => chain.coordinator.rpc.stats()[0]?.activeCalls === 0);
  });

  it('keeps one trace from the presentation through the session to the coordinator, each span parenting the next', async () => {
    const recorded = (telemetry = installInMemoryTelemetry());
    const chain = await start({ presentations: 1 });
    const [presentation] = chain.presentations as [Presentation];
    const { picker } = presentation;
    await eventually(() => live(presentation));
    recorded.reset();
    const events: Array<{ event: SessionPickerEvent; traceId: string | undefined }> = [];
    picker.events.subscribe((event, at) => events.push({ event, traceId: at.telemetryContext.traceId }));
    const states: Array<{ ids: string[]; traceId: string | undefined }> = [];
    picker.state.subscribe((state, at) =>
      states.push({ ids: state.sessions.map((s) => s.sessionId), traceId: at.telemetryContext.traceId }),
    );

    const created = await BACKGROUND_CONTEXT.telemetryContext.startSpan({ name: 'ui.sessions.create' }, (span) =>
      picker.create({ title: 'traced' }, withTelemetryContext(span, BACKGROUND_CONTEXT)),
    );
    const names = [
      'ui.sessions.create',
      'rpc.client session-picker.create',
      'rpc.server session-picker.create',
      'rpc.client session-directory.create',
      'rpc.server session-directory.create',
    ];
    await eventually(() => names.every((name) => recorded.spans().some((span) => span.name === name)));
    const chainOfSpans = names.map((name) => only(recorded.spans(), name));
    expect(new Set(chainOfSpans.map((span) => span.traceId)).size).toBe(1);
    expect(chainOfSpans[0]?.parentSpanId).toBeUndefined();
    for (let index = 1; index < chainOfSpans.length; index++) {
      expect(chainOfSpans[index], names[index]).toMatchObject({
        kind: index % 2 === 1 ? 'client' : 'server',
        parentSpanId: chainOfSpans[index - 1]?.spanId,
      });
    }

    // And back down: what the create changed reaches the presentation under the same trace, on both streams.
    const traceId = chainOfSpans[0]?.traceId;
    const own = events.filter(({ event }) => event.type !== 'deleted' && event.session.sessionId === created.sessionId);
    expect(own.map(({ event }) => event.type)).toContain('created');
    expect(own.every((delivery) => delivery.traceId === traceId)).toBe(true);
    expect(states.find(({ ids }) => ids.includes(created.sessionId))?.traceId).toBe(traceId);
  });
});

function only(spans: readonly FinishedSpan[], name: string): FinishedSpan {
  const found = spans.filter((span) => span.name === name);
  expect(found, `exactly one span named ${name}`).toHaveLength(1);
  return found[0] as FinishedSpan;
}
