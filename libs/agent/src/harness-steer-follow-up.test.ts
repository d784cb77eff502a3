import { BACKGROUND_CONTEXT } from '@pi/context';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentHarness } from './harness-types';
import type { AgentMessage, AgentTool, QueueItem, UserMessage } from '@pi/agent-contract';
import { MAX_QUEUE_ITEMS } from './message-queue';
import { openHarness } from './open-harness';
import {
  createDeferred,
  createScriptedProvider,
  harnessTestBed,
  nextEvent,
  readSessionLines,
  recordEvents,
  testHarnessOptions,
  type Deferred,
  type ScriptStep,
  type ScriptedProvider,
} from './testing';

const user = (text: string): UserMessage => ({ role: 'user', content: [{ type: 'text', text }] });
const answer = (text: string): ScriptStep[] => [
  { type: 'text_delta', delta: text },
  { type: 'done', stopReason: 'stop' },
];

const bed = harnessTestBed();
const open = bed.open;

/** A tool that waits for its gate (when one is given), so a test can send while it runs. */
function gatedTool(name: string, gates: Record<string, Deferred<void>> = {}): AgentTool<{ id: string }> {
  return {
    name,
    label: name,
    description: name,
    executionMode: 'sequential',
    parameters: z.object({ id: z.string() }),
    async execute({ id }) {
      await gates[id]?.promise;
      return { content: [{ type: 'text', text: `${name} ${id} done` }], details: null };
    },
  };
}

async function openWith(provider: ScriptedProvider, tools: AgentTool<{ id: string }>[] = [], maxTurns?: number) {
  const options = testHarnessOptions({
    file: bed.directory.file,
    providers: [provider],
    tools: tools as never,
    ...(maxTurns === undefined ? {} : { maxTurns }),
  });
  const harness = (await openHarness(options))._unsafeUnwrap();
  open.push(harness);
  return harness;
}

function texts(messages: readonly AgentMessage[]): string[] {
  return messages.map((message) =>
    message.content
      .map((part) => (part.type === 'text' ? part.text : part.type === 'tool_call' ? `call:${part.name}` : ''))
      .join(''),
  );
}

function kindsOf(queue: readonly QueueItem[]): string[] {
  return queue.map((item) => `${item.kind}:${item.message.content[0]?.text ?? ''}`);
}

async function settledRuns(harness: AgentHarness, count: number): Promise<void> {
  for (let settled = 0; settled < count; settled += 1) await nextEvent(harness, 'run_settled');
}

describe('steer', () => {
  it('reaches the model after both tool calls of the turn finish, before the next request', async () => {
    const gates = { a: createDeferred<void>(), b: createDeferred<void>() };
    const provider = createScriptedProvider({
      turns: [
        [
          { type: 'tool_call', id: 'c1', name: 'slow', arguments: { id: 'a' } },
          { type: 'tool_call', id: 'c2', name: 'slow', arguments: { id: 'b' } },
          { type: 'done', stopReason: 'tool_calls' },
        ],
        answer('heard you'),
      ],
    });
    const harness = await openWith(provider, [gatedTool('slow', gates)]);
    const events = recordEvents(harness);
    const firstTool = nextEvent(harness, 'tool_started');
    const { operationId } = (await harness.main.prompt([user('go')], BACKGROUND_CONTEXT))._unsafeUnwrap();
    await firstTool;

    const steered = (await harness.main.steer(user('use tabs'), BACKGROUND_CONTEXT))._unsafeUnwrap();
    expect(steered).toEqual({ kind: 'queued', itemId: expect.any(String), duplicate: false });
    expect(kindsOf(harness.main.queue)).toEqual(['steer:use tabs']);
    const secondTool = nextEvent(harness, 'tool_started');
    gates.a.resolve();
    await secondTool;
    // Still waiting: the second call has not finished.
    expect(kindsOf(harness.main.queue)).toEqual(['steer:use tabs']);
    gates.b.resolve();
    expect(await harness.main.settled(operationId)).toEqual({ outcome: 'completed', error: null });

    expect(provider.requests).toHaveLength(2);
    expect(texts(provider.requests[1]?.request.messages ?? [])).toEqual([
      'go',
      'call:slowcall:slow',
      'slow a done',
      'slow b done',
      'use tabs',
    ]);
    const delivered = harness.tree.entries().find((entry) => entry.kind === 'message' && entry.queueItemId);
    expect(delivered).toMatchObject({ operationId, queueItemId: steered.kind === 'queued' ? steered.itemId : '' });
    expect(harness.main.queue).toEqual([]);
    const queues = events.flatMap((event) => (event.type === 'queue_changed' ? [kindsOf(event.queue)] : []));
    expect(queues).toEqual([['steer:use tabs'], []]);
  });

  it('sent while the model gives its final answer, keeps the run going for one more request', async () => {
    const release = createDeferred<void>();
    const provider = createScriptedProvider({
      turns: [
        [
          { type: 'text_delta', delta: 'done' },
          { type: 'wait', until: release.promise },
          { type: 'done', stopReason: 'stop' },
        ],
        answer('ok, tabs'),
      ],
    });
    const harness = await openWith(provider);
    const delta = nextEvent(harness, 'text_delta');
    const { operationId } = (await harness.main.prompt([user('go')], BACKGROUND_CONTEXT))._unsafeUnwrap();
    await delta;
    await harness.main.steer(user('use tabs'), BACKGROUND_CONTEXT);
    release.resolve();
    await harness.main.settled(operationId);
    expect(texts(provider.requests[1]?.request.messages ?? [])).toEqual(['go', 'done', 'use tabs']);
    expect(texts(harness.tree.messages())).toEqual(['go', 'done', 'use tabs', 'ok, tabs']);
  });

  it('at the run’s last turn waits, and starts the next run', async () => {
    const release = createDeferred<void>();
    const provider = createScriptedProvider({
      turns: [
        [
          { type: 'tool_call', id: 'c1', name: 'slow', arguments: { id: 'a' } },
          { type: 'wait', until: release.promise },
          { type: 'done', stopReason: 'tool_calls' },
        ],
        answer('next run'),
      ],
    });
    const harness = await openWith(provider, [gatedTool('slow')], 1);
    const events = recordEvents(harness);
    await harness.main.prompt([user('go')], BACKGROUND_CONTEXT);
    await harness.main.steer(user('then this'), BACKGROUND_CONTEXT);
    release.resolve();
    await settledRuns(harness, 2);
    const runs = events.filter((event) => event.type === 'run_started');
    expect(runs).toHaveLength(2);
    expect(texts(provider.requests[1]?.request.messages ?? []).at(-1)).toBe('then this');
  });

  it('with no run in progress starts one at once, as a prompt', async () => {
    const provider = createScriptedProvider({ turns: [answer('hi')] });
    const harness = await openWith(provider);
    const started = (await harness.main.steer(user('hello'), BACKGROUND_CONTEXT))._unsafeUnwrap();
    expect(started).toEqual({ kind: 'started', operationId: expect.any(String), duplicate: false });
    if (started.kind !== 'started') throw new Error('not started');
    expect(await harness.main.settled(started.operationId)).toEqual({ outcome: 'completed', error: null });
    expect(harness.main.queue).toEqual([]);
  });
});

describe('follow-up', () => {
  it('two follow-ups run in order, each as a run of its own, after the run settles', async () => {
    const release = createDeferred<void>();
    const provider = createScriptedProvider({
      turns: [[{ type: 'wait', until: release.promise }, ...answer('first')], answer('second'), answer('third')],
    });
    const harness = await openWith(provider);
    const events = recordEvents(harness);
    await harness.main.prompt([user('one')], BACKGROUND_CONTEXT);
    await harness.main.followUp(user('two'), BACKGROUND_CONTEXT);
    await harness.main.followUp(user('three'), BACKGROUND_CONTEXT);
    expect(kindsOf(harness.main.queue)).toEqual(['follow-up:two', 'follow-up:three']);
    release.resolve();
    await settledRuns(harness, 3);

    expect(texts(harness.tree.messages())).toEqual(['one', 'first', 'two', 'second', 'three', 'third']);
    const kinds = events.flatMap((event) =>
      event.type === 'run_started' || event.type === 'run_settled' ? [event.type] : [],
    );
    expect(kinds).toEqual(['run_started', 'run_settled', 'run_started', 'run_settled', 'run_started', 'run_settled']);
    // Each follow-up's message names its item: its durable delivery.
    const lines = await readSessionLines(bed.directory.file);
    expect(lines.filter((line) => line['kind'] === 'queue_added')).toHaveLength(2);
    expect(lines.filter((line) => typeof line['queueItemId'] === 'string')).toHaveLength(2);
  });

  it('waiting steers go before follow-ups, all steers together as one run', async () => {
    const release = createDeferred<void>();
    const provider = createScriptedProvider({
      turns: [[{ type: 'wait', until: release.promise }, ...answer('a')], answer('b'), answer('c')],
    });
    const harness = await openWith(provider, [], 1);
    await harness.main.prompt([user('one')], BACKGROUND_CONTEXT);
    await harness.main.followUp(user('later'), BACKGROUND_CONTEXT);
    await harness.main.steer(user('s1'), BACKGROUND_CONTEXT);
    await harness.main.steer(user('s2'), BACKGROUND_CONTEXT);
    expect(kindsOf(harness.main.queue)).toEqual(['steer:s1', 'steer:s2', 'follow-up:later']);
    release.resolve();
    await settledRuns(harness, 3);
    expect(texts(harness.tree.messages())).toEqual(['one', 'a', 's1', 's2', 'b', 'later', 'c']);
  });
});

describe('withdraw', () => {
  it('takes a waiting item out durably; again is harmless; a delivered or unknown id is refused', async () => {
    const release = createDeferred<void>();
    const provider = createScriptedProvider({
      turns: [[{ type: 'wait', until: release.promise }, ...answer('a')], answer('b')],
    });
    const harness = await openWith(provider);
    const { operationId } = (await harness.main.prompt([user('one')], BACKGROUND_CONTEXT))._unsafeUnwrap();
    const kept = (await harness.main.followUp(user('kept'), BACKGROUND_CONTEXT))._unsafeUnwrap();
    const dropped = (await harness.main.followUp(user('dropped'), BACKGROUND_CONTEXT))._unsafeUnwrap();
    if (kept.kind !== 'queued' || dropped.kind !== 'queued') throw new Error('not queued');

    expect((await harness.main.withdraw(dropped.itemId, BACKGROUND_CONTEXT)).isOk()).toBe(true);
    expect(kindsOf(harness.main.queue)).toEqual(['follow-up:kept']);
    expect((await harness.main.withdraw(dropped.itemId, BACKGROUND_CONTEXT)).isOk()).toBe(true);
    expect((await harness.main.withdraw('nope', BACKGROUND_CONTEXT))._unsafeUnwrapErr().code).toBe(
      'unknown_queue_item',
    );
    release.resolve();
    await harness.main.settled(operationId);
    await nextEvent(harness, 'run_settled');
    expect((await harness.main.withdraw(kept.itemId, BACKGROUND_CONTEXT))._unsafeUnwrapErr().code).toBe(
      'queue_item_consumed',
    );
    const withdrawn = (await readSessionLines(bed.directory.file)).filter((line) => line['kind'] === 'queue_withdrawn');
    expect(withdrawn).toEqual([expect.objectContaining({ itemId: dropped.itemId, reason: 'withdrawn', operationId })]);
    expect(texts(harness.tree.messages())).toEqual(['one', 'a', 'kept', 'b']);
  });
});

describe('requestAbort and the queue', () => {
  it('withdraws every waiting steer and follow-up (reason aborted), and nothing starts after the abort', async () => {
    const provider = createScriptedProvider({
      turns: [[{ type: 'wait', until: new Promise(() => undefined) }, ...answer('never')]],
    });
    const harness = await openWith(provider);
    const events = recordEvents(harness);
    const { operationId } = (await harness.main.prompt([user('one')], BACKGROUND_CONTEXT))._unsafeUnwrap();
    await harness.main.steer(user('steer'), BACKGROUND_CONTEXT);
    await harness.main.followUp(user('follow'), BACKGROUND_CONTEXT);
    (await harness.main.requestAbort(operationId, BACKGROUND_CONTEXT))._unsafeUnwrap();
    expect(harness.main.queue).toEqual([]);
    expect(await harness.main.settled(operationId)).toEqual({ outcome: 'aborted', error: null });
    await new Promise((resolve) => setTimeout(resolve, 20));

    expect(events.filter((event) => event.type === 'run_started')).toHaveLength(1);
    expect(harness.main.running).toBeNull();
    const lines = await readSessionLines(bed.directory.file);
    expect(lines.filter((line) => line['kind'] === 'queue_withdrawn').map((line) => line['reason'])).toEqual([
      'aborted',
      'aborted',
    ]);
    // The cancellation is on disk before the withdrawals.
    const kinds = lines.map((line) => line['kind']);
    expect(kinds.indexOf('cancel_requested')).toBeLessThan(kinds.indexOf('queue_withdrawn'));
  });
});

describe('client operation ids and bad input', () => {
  it('the same id queues once, and a steer that started a run answers with that run', async () => {
    const release = createDeferred<void>();
    const provider = createScriptedProvider({
      turns: [[{ type: 'wait', until: release.promise }, ...answer('a')], answer('b')],
    });
    const harness = await openWith(provider);
    const started = (
      await harness.main.steer(user('one'), BACKGROUND_CONTEXT, { clientOperationId: 'send-1' })
    )._unsafeUnwrap();
    const first = (
      await harness.main.followUp(user('two'), BACKGROUND_CONTEXT, { clientOperationId: 'send-2' })
    )._unsafeUnwrap();
    const again = (
      await harness.main.followUp(user('two'), BACKGROUND_CONTEXT, { clientOperationId: 'send-2' })
    )._unsafeUnwrap();
    expect(again).toEqual({ ...first, duplicate: true });
    expect(harness.main.queue).toHaveLength(1);
    expect(
      (await harness.main.steer(user('one'), BACKGROUND_CONTEXT, { clientOperationId: 'send-1' }))._unsafeUnwrap(),
    ).toEqual({ ...started, duplicate: true });
    // A prompt cannot take an id a waiting message holds.
    expect(
      (await harness.main.prompt([user('x')], BACKGROUND_CONTEXT, { clientOperationId: 'send-2' }))._unsafeUnwrapErr()
        .code,
    ).toBe('invalid_message');
    release.resolve();
    await settledRuns(harness, 2);
    const lines = await readSessionLines(bed.directory.file);
    // The follow-up's run carries its id, so the client's id finds the run it started.
    expect(
      lines.filter((line) => line['kind'] === 'operation_started').map((line) => line['clientOperationId']),
    ).toEqual(['send-1', 'send-2']);
  });

  it('refuses blank text, a bad id, and a full queue with stable codes', async () => {
    const provider = createScriptedProvider({ turns: [[{ type: 'wait', until: new Promise(() => undefined) }]] });
    const harness = await openWith(provider);
    await harness.main.prompt([user('one')], BACKGROUND_CONTEXT);
    expect((await harness.main.steer(user('  '), BACKGROUND_CONTEXT))._unsafeUnwrapErr().code).toBe('invalid_message');
    const badId = await harness.main.followUp(user('x'), BACKGROUND_CONTEXT, { clientOperationId: 'a b' });
    expect(badId._unsafeUnwrapErr().code).toBe('invalid_message');
    for (let index = 0; index < MAX_QUEUE_ITEMS; index += 1)
      (await harness.main.followUp(user(`f${index}`), BACKGROUND_CONTEXT))._unsafeUnwrap();
    expect((await harness.main.followUp(user('one too many'), BACKGROUND_CONTEXT))._unsafeUnwrapErr().code).toBe(
      'queue_full',
    );
  });
});
