import { BACKGROUND_CONTEXT, withTelemetryContext, type Context } from '@pi/context';
import { installInMemoryTelemetry, type InMemoryTelemetry } from '@pi/context/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDeferred } from './deferred';
import type { AgentHarness } from './harness-types';
import { openHarness } from './open-harness';
import { createScriptedProvider, createSessionDirectory, testHarnessOptions, type SessionDirectory } from './testing';

let directory: SessionDirectory;
let telemetry: InMemoryTelemetry;
let harness: AgentHarness;

beforeEach(async () => {
  directory = await createSessionDirectory();
  telemetry = installInMemoryTelemetry();
  const provider = createScriptedProvider({
    turns: [
      [
        { type: 'tool_call', id: 'c1', name: 'missing', arguments: {} },
        { type: 'done', stopReason: 'tool_calls' },
      ],
      [{ type: 'done', stopReason: 'stop' }],
    ],
  });
  harness = (await openHarness(testHarnessOptions({ file: directory.file, providers: [provider] })))._unsafeUnwrap();
});
afterEach(async () => {
  await harness.close();
  telemetry.uninstall();
  await directory.remove();
});

describe('run telemetry', () => {
  it('runs under a detached agent.run root span linked to the call that started it, not parented to it', async () => {
    const operationId = await BACKGROUND_CONTEXT.telemetryContext.startSpan(
      { name: 'rpc.server chat.prompt' },
      async (span) => {
        const accepted = await harness.main.prompt(
          [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
          withTelemetryContext(span, BACKGROUND_CONTEXT),
        );
        return accepted._unsafeUnwrap().operationId;
      },
    );
    await harness.main.settled(operationId);

    const spans = telemetry.spans();
    const caller = spans.find((span) => span.name === 'rpc.server chat.prompt');
    const run = spans.find((span) => span.name === 'agent.run');
    expect(run?.parentSpanId).toBeUndefined();
    expect(run?.traceId).not.toBe(caller?.traceId);
    expect(run?.links).toEqual([{ traceId: caller?.traceId, spanId: caller?.spanId }]);
    expect(run?.attributes).toMatchObject({ 'pi.operation_id': operationId, 'pi.outcome': 'completed' });
    const tool = spans.find((span) => span.name === 'agent.tool');
    expect(tool?.parentSpanId).toBe(run?.spanId);
  });
});

describe('the run of a queued follow-up', () => {
  it('links to the call that queued it, not to the call of the run it waited for', async () => {
    const queued = await createSessionDirectory();
    const gate = createDeferred<void>();
    const provider = createScriptedProvider({
      turns: [
        [
          { type: 'wait', until: gate.promise },
          { type: 'done', stopReason: 'stop' },
        ],
        [{ type: 'done', stopReason: 'stop' }],
      ],
    });
    const lane = (await openHarness(testHarnessOptions({ file: queued.file, providers: [provider] })))._unsafeUnwrap();
    try {
      const inSpan = <R>(name: string, send: (context: Context) => Promise<R>) =>
        BACKGROUND_CONTEXT.telemetryContext.startSpan({ name }, (span) =>
          send(withTelemetryContext(span, BACKGROUND_CONTEXT)),
        );
      const text = (words: string) => ({ role: 'user' as const, content: [{ type: 'text' as const, text: words }] });
      const first = await inSpan('rpc.server chat.prompt', (context) => lane.main.prompt([text('first')], context));
      const followUp = await inSpan('rpc.server chat.followUp', (context) => lane.main.followUp(text('then'), context));
      expect(followUp._unsafeUnwrap().kind).toBe('queued');
      const firstId = first._unsafeUnwrap().operationId;
      const secondId = new Promise<string>((resolve) => {
        const stop = lane.events.subscribe((event) => {
          if (event.type !== 'run_started' || event.operationId === firstId) return;
          stop();
          resolve(event.operationId);
        });
      });
      gate.resolve();
      await lane.main.settled(await secondId);

      const spans = telemetry.spans();
      const spanOf = (name: string) => spans.find((span) => span.name === name);
      const [firstRun, secondRun] = spans.filter((span) => span.name === 'agent.run');
      const linkTo = (name: string) => [{ traceId: spanOf(name)?.traceId, spanId: spanOf(name)?.spanId }];
      expect(firstRun?.links).toEqual(linkTo('rpc.server chat.prompt'));
      expect(secondRun?.links).toEqual(linkTo('rpc.server chat.followUp'));
    } finally {
      await lane.close();
      await queued.remove();
    }
  });
});

describe('appendCustom', () => {
  it('appends a durable custom entry that the model never sees', async () => {
    const entry = await harness.appendCustom('todo', { items: ['a'] }, BACKGROUND_CONTEXT);
    expect(entry).toMatchObject({ kind: 'custom', namespace: 'todo', data: { items: ['a'] } });
    expect(harness.tree.leafId).toBe(entry.id);
    expect(harness.tree.messages()).toEqual([]);
  });

  it('refuses data that is not strict JSON', async () => {
    await expect(harness.appendCustom('todo', { when: new Date(0) } as never, BACKGROUND_CONTEXT)).rejects.toThrow(
      TypeError,
    );
    expect(harness.tree.entries()).toEqual([]);
  });
});
