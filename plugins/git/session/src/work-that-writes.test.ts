import { describe, expect, it } from 'vitest';
import type { HarnessEvent, SessionEntry } from '@pi/plugin-api';
import { WorkThatWrites } from './work-that-writes';

const base = { id: 'e1', parentId: null, timestamp: '2026-12-03T06:00:00.000Z' };

function appended(operationId: string | null, entry: SessionEntry): HarnessEvent {
  return { type: 'entry_appended', operationId, entry };
}

const answer = (operationId: string): HarnessEvent =>
  appended(operationId, {
    ...base,
    kind: 'message',
    operationId,
    message: { role: 'assistant', content: [{ type: 'text', text: 'hello' }], model: 'm/m', stopReason: 'stop' },
  });

const toolResult = (operationId: string): HarnessEvent =>
  appended(operationId, {
    ...base,
    kind: 'message',
    operationId,
    message: { role: 'tool', toolCallId: 'c1', toolName: 'read', content: [], details: null, isError: false },
  });

const settled = (operationId: string): HarnessEvent => ({
  type: 'run_settled',
  operationId,
  outcome: { outcome: 'completed', error: null },
});

const toolStarted = (operationId: string): HarnessEvent => ({
  type: 'tool_started',
  operationId,
  toolCallId: 'c1',
  toolName: 'bash',
  arguments: { command: 'touch x' },
});

/** The events that asked for a check, in order. */
function checksAfter(events: readonly HarnessEvent[]): string[] {
  const work = new WorkThatWrites();
  return events.filter((event) => work.heard(event)).map((event) => event.type);
}

describe('which harness events lead to a git check', () => {
  it('a run that only answered asks for none, from its start to its end', () => {
    const run: HarnessEvent[] = [
      { type: 'run_started', operationId: 'op' },
      { type: 'text_delta', operationId: 'op', delta: 'hel' },
      { type: 'text_delta', operationId: 'op', delta: 'lo' },
      answer('op'),
      settled('op'),
    ];
    expect(checksAfter(run)).toEqual([]);
  });

  it("a run with a tool asks after the tool's result and again when it settles", () => {
    const run = [toolStarted('op'), toolResult('op'), answer('op'), settled('op')];
    expect(checksAfter(run)).toEqual(['entry_appended', 'run_settled']);
  });

  it('a run whose tool was cancelled before its result still asks when it settles', () => {
    expect(checksAfter([toolStarted('op'), settled('op')])).toEqual(['run_settled']);
  });

  it("one run's tool does not make the next run that only answers ask", () => {
    const events = [toolStarted('a'), toolResult('a'), settled('a'), answer('b'), settled('b')];
    expect(checksAfter(events)).toEqual(['entry_appended', 'run_settled']);
  });

  it("a `!!` command's record and a `!` command's message, written outside any run, ask for one", () => {
    const custom = appended(null, { ...base, kind: 'custom', namespace: '@pi/chat', data: { type: 'shell' } });
    const shellMessage = appended(null, {
      ...base,
      kind: 'message',
      operationId: null,
      message: { role: 'user', content: [{ type: 'text', text: '$ touch x' }] },
      origin: { namespace: '@pi/chat', data: { type: 'shell' } },
    });
    expect(checksAfter([custom, shellMessage])).toEqual(['entry_appended', 'entry_appended']);
  });

  it("a plugin's record inside a run, a prompt and queue bookkeeping ask for none", () => {
    const events: HarnessEvent[] = [
      appended('op', { ...base, kind: 'custom', namespace: '@pi/todo', data: { items: [] } }),
      appended(null, {
        ...base,
        kind: 'message',
        operationId: null,
        message: { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      }),
      appended(null, { ...base, kind: 'queue_withdrawn', itemId: 'q', reason: 'withdrawn', operationId: null }),
      { type: 'queue_changed', operationId: null, queue: [] },
    ];
    expect(checksAfter(events)).toEqual([]);
  });
});
