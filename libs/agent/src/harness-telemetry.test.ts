import { BACKGROUND_CONTEXT, withTelemetryContext } from '@pi/context';
import { installInMemoryTelemetry, type InMemoryTelemetry } from '@pi/context/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
  it('runs under a detached agent.run root span, not under the span of the call that started it', async () => {
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
    expect(run?.attributes).toMatchObject({ 'pi.operation_id': operationId, 'pi.outcome': 'completed' });
    const tool = spans.find((span) => span.name === 'agent.tool');
    expect(tool?.parentSpanId).toBe(run?.spanId);
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
