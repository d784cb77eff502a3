import { BACKGROUND_CONTEXT } from '@pi/context';
import { describe, expect, it } from 'vitest';
import type { AgentHarness } from './harness-types';
import type { AgentMessage, QueueItem, UserMessage } from '@pi/agent-contract';
import { openHarness } from './open-harness';
import {
  createScriptedProvider,
  harnessTestBed,
  nextEvent,
  readSessionLines,
  recordEvents,
  testHarnessOptions,
  type ScriptStep,
  type ScriptedProvider,
} from './testing';

const user = (text: string): UserMessage => ({ role: 'user', content: [{ type: 'text', text }] });
const answer = (text: string): ScriptStep[] => [
  { type: 'text_delta', delta: text },
  { type: 'done', stopReason: 'stop' },
];
/** A turn that never ends by itself: the run is in progress until the harness closes. */
const forever: ScriptStep[] = [{ type: 'wait', until: new Promise(() => undefined) }];

const bed = harnessTestBed();
const open = bed.open;

async function openWith(provider: ScriptedProvider): Promise<AgentHarness> {
  const harness = (
    await openHarness(testHarnessOptions({ file: bed.directory.file, providers: [provider] }))
  )._unsafeUnwrap();
  open.push(harness);
  return harness;
}

/** Closes like a crash would leave it: the run stopped in memory, nothing more written. */
async function crash(harness: AgentHarness): Promise<void> {
  open.splice(open.indexOf(harness), 1);
  await harness.close();
}

function texts(messages: readonly AgentMessage[]): string[] {
  return messages.map((message) => message.content.map((part) => (part.type === 'text' ? part.text : '')).join(''));
}

function kindsOf(queue: readonly QueueItem[]): string[] {
  return queue.map((item) => `${item.kind}:${item.message.content[0]?.text ?? ''}`);
}

describe('the queue across a restart', () => {
  it('restores waiting follow-ups, which start only once the queue is started, in order', async () => {
    const before = await openWith(createScriptedProvider({ turns: [forever] }));
    await before.main.prompt([user('long task')], BACKGROUND_CONTEXT);
    await before.main.followUp(user('then a'), BACKGROUND_CONTEXT);
    await before.main.followUp(user('then b'), BACKGROUND_CONTEXT);
    const queued = before.main.queue;
    await crash(before);
    // The file keeps each item's own time (the entry's timestamp is stamped a moment later by the writer).
    const added = (await readSessionLines(bed.directory.file)).filter((line) => line['kind'] === 'queue_added');
    expect(added.map((line) => line['queuedAt'])).toEqual(queued.map((item) => item.queuedAt));

    const provider = createScriptedProvider({ turns: [answer('did a'), answer('did b')] });
    const after = await openWith(provider);
    expect(after.main.queue).toEqual(queued);
    expect(after.recovery).toHaveLength(1); // the interrupted run
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(after.main.running).toBeNull();
    expect(provider.requests).toHaveLength(0);

    const events = recordEvents(after);
    after.startQueue();
    await nextEvent(after, 'run_settled');
    await nextEvent(after, 'run_settled');
    expect(events.filter((event) => event.type === 'run_started')).toHaveLength(2);
    expect(texts(after.tree.messages()).slice(-4)).toEqual(['then a', 'did a', 'then b', 'did b']);
    expect(after.main.queue).toEqual([]);
  });

  it('does not bring back withdrawn or delivered items, and a waiting steer goes first', async () => {
    const before = await openWith(createScriptedProvider({ turns: [answer('one'), forever] }));
    const first = (await before.main.prompt([user('one')], BACKGROUND_CONTEXT))._unsafeUnwrap();
    await before.main.settled(first.operationId);
    const follow = (await before.main.followUp(user('delivered'), BACKGROUND_CONTEXT))._unsafeUnwrap();
    expect(follow.kind).toBe('started');
    const dropped = (await before.main.followUp(user('dropped'), BACKGROUND_CONTEXT))._unsafeUnwrap();
    if (dropped.kind !== 'queued') throw new Error('not queued');
    await before.main.withdraw(dropped.itemId, BACKGROUND_CONTEXT);
    await before.main.followUp(user('kept follow-up'), BACKGROUND_CONTEXT, { clientOperationId: 'f-1' });
    await before.main.steer(user('kept steer'), BACKGROUND_CONTEXT);
    await crash(before);

    const provider = createScriptedProvider({ turns: [answer('steered'), answer('followed')] });
    const after = await openWith(provider);
    expect(kindsOf(after.main.queue)).toEqual(['steer:kept steer', 'follow-up:kept follow-up']);
    // The client's id is known after the restart: a resend queues nothing.
    const resent = (
      await after.main.followUp(user('kept follow-up'), BACKGROUND_CONTEXT, { clientOperationId: 'f-1' })
    )._unsafeUnwrap();
    expect(resent).toMatchObject({ kind: 'queued', duplicate: true });
    after.startQueue();
    await nextEvent(after, 'run_settled');
    await nextEvent(after, 'run_settled');
    expect(texts(provider.requests[0]?.request.messages ?? []).at(-1)).toBe('kept steer');
    expect(texts(provider.requests[1]?.request.messages ?? []).at(-1)).toBe('kept follow-up');
    const lines = await readSessionLines(bed.directory.file);
    const delivered = lines.filter((line) => typeof line['queueItemId'] === 'string');
    expect(delivered).toHaveLength(2);
  });

  it('keeps a restored follow-up queued while there is no model to run it', async () => {
    const before = await openWith(createScriptedProvider({ turns: [forever] }));
    await before.main.prompt([user('long task')], BACKGROUND_CONTEXT);
    await before.main.followUp(user('after'), BACKGROUND_CONTEXT);
    await crash(before);

    const provider = createScriptedProvider({ turns: [] });
    const options = testHarnessOptions({ file: bed.directory.file, providers: [provider] });
    const settings = { model: null, thinkingLevel: 'off' as const };
    const after = (await openHarness({ ...options, settings: () => settings }))._unsafeUnwrap();
    open.push(after);
    after.startQueue();
    // No model: the follow-up stays queued rather than being lost.
    expect(kindsOf(after.main.queue)).toEqual(['follow-up:after']);
    expect(after.main.running).toBeNull();
  });
});
