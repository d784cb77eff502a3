import { BACKGROUND_CONTEXT } from '@pi/context';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentTool, SessionEntry, UserMessage } from '@pi/agent-contract';
import type { AgentHarness } from './harness-types';
import { openHarness } from './open-harness';
import {
  createDeferred,
  createScriptedProvider,
  FaultyDisk,
  harnessTestBed,
  nextEvent,
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

const bed = harnessTestBed();

async function openOn(disk: FaultyDisk, provider: ScriptedProvider, tools: AgentTool<never>[] = []) {
  const options = testHarnessOptions({
    file: bed.directory.file,
    providers: [provider],
    tools: tools as never,
    appendHandle: disk.wrap,
  });
  const harness = (await openHarness(options))._unsafeUnwrap();
  bed.open.push(harness);
  return harness;
}

/** Closes the harness and opens the file again: what a restart would find. */
async function reopened(harness: AgentHarness, provider: ScriptedProvider): Promise<readonly SessionEntry[]> {
  await harness.close();
  const again = (
    await openHarness(testHarnessOptions({ file: bed.directory.file, providers: [provider] }))
  )._unsafeUnwrap();
  bed.open.push(again);
  expect(again.recovery).toEqual([]);
  return again.tree.entries();
}

const ids = (entries: readonly SessionEntry[]) => entries.map((entry) => entry.id);

describe('a prompt while the session file cannot be written', () => {
  it('is refused with session_file_unwritable, leaves nothing behind, and is accepted again once the disk recovers', async () => {
    const disk = new FaultyDisk();
    const provider = createScriptedProvider({ turns: [answer('done')] });
    const harness = await openOn(disk, provider);
    const events = recordEvents(harness);

    disk.fail({ code: 'ENOSPC', tornBytes: 40 });
    const refused = await harness.main.prompt([user('hello')], BACKGROUND_CONTEXT, { clientOperationId: 'send-1' });
    expect(refused._unsafeUnwrapErr()).toEqual({
      code: 'session_file_unwritable',
      message: `Cannot write the session file ${bed.directory.file}: no space left on device (ENOSPC)`,
    });
    expect(harness.main.running).toBeNull();
    expect(harness.tree.entries()).toEqual([]);
    expect(harness.sessionFileFault).toMatchObject({ code: 'session_file_unwritable', cause: 'ENOSPC' });
    expect(events.map((event) => event.type)).toEqual(['session_file_fault']);

    disk.recover();
    // The same client id: the refused send never happened, so this one starts the run.
    const accepted = (
      await harness.main.prompt([user('hello')], BACKGROUND_CONTEXT, { clientOperationId: 'send-1' })
    )._unsafeUnwrap();
    expect(accepted.duplicate).toBe(false);
    expect(await harness.main.settled(accepted.operationId)).toEqual({ outcome: 'completed', error: null });
    expect(harness.sessionFileFault).toBeNull();
    expect(events.filter((event) => event.type === 'session_file_fault')).toEqual([
      { type: 'session_file_fault', operationId: null, fault: expect.objectContaining({ cause: 'ENOSPC' }) },
      { type: 'session_file_fault', operationId: null, fault: null },
    ]);
    // The torn bytes were cut: a restart finds exactly what memory held, and nothing to repair.
    expect(ids(await reopened(harness, provider))).toEqual(ids(harness.tree.entries()));
  });

  it('refuses a follow-up the same way and frees its client id', async () => {
    const disk = new FaultyDisk();
    const gate = createDeferred<void>();
    const provider = createScriptedProvider({ turns: [[{ type: 'wait', until: gate.promise }, ...answer('a')]] });
    const harness = await openOn(disk, provider);
    const { operationId } = (await harness.main.prompt([user('first')], BACKGROUND_CONTEXT))._unsafeUnwrap();

    disk.fail({ code: 'EDQUOT' });
    const refused = await harness.main.followUp(user('later'), BACKGROUND_CONTEXT, { clientOperationId: 'f-1' });
    expect(refused._unsafeUnwrapErr()).toMatchObject({ code: 'session_file_unwritable' });
    expect(refused._unsafeUnwrapErr().message).toContain('disk quota exceeded (EDQUOT)');
    expect(harness.main.queue).toEqual([]);

    disk.recover();
    const queued = (
      await harness.main.followUp(user('later'), BACKGROUND_CONTEXT, { clientOperationId: 'f-1' })
    )._unsafeUnwrap();
    expect(queued).toMatchObject({ kind: 'queued', duplicate: false });
    gate.resolve();
    await harness.main.settled(operationId);
  });
});

describe('a run that loses the disk part-way', () => {
  it('settles failed, and the file gets that settlement and a result for the open call before anything else', async () => {
    const disk = new FaultyDisk();
    const tool: AgentTool<{ path: string }> = {
      name: 'write',
      label: 'write',
      description: 'write',
      executionMode: 'sequential',
      parameters: z.object({ path: z.string() }),
      async execute() {
        // The disk fills while the tool runs: its result cannot be recorded.
        disk.fail({ code: 'ENOSPC', tornBytes: 7 });
        return { content: [{ type: 'text', text: 'wrote it' }], details: null };
      },
    };
    const provider = createScriptedProvider({
      turns: [
        [
          { type: 'tool_call', id: 'call-1', name: 'write', arguments: { path: 'a' } },
          { type: 'done', stopReason: 'tool_calls' },
        ],
        answer('after'),
      ],
    });
    const harness = await openOn(disk, provider, [tool as never]);
    const { operationId } = (await harness.main.prompt([user('go')], BACKGROUND_CONTEXT))._unsafeUnwrap();
    const settled = await harness.main.settled(operationId);
    expect(settled).toEqual({
      outcome: 'failed',
      error: `Cannot write the session file ${bed.directory.file}: no space left on device (ENOSPC)`,
    });
    // Memory holds only what the file holds: the call, no result, no settlement yet.
    expect(harness.tree.entries().map((entry) => entry.kind)).toEqual(['operation_started', 'message', 'message']);

    disk.recover();
    const next = (await harness.main.prompt([user('again')], BACKGROUND_CONTEXT))._unsafeUnwrap();
    await harness.main.settled(next.operationId);
    const entries = await reopened(harness, provider);
    const owed = entries.slice(3, 5);
    expect(owed).toMatchObject([
      { kind: 'message', operationId, message: { role: 'tool', toolCallId: 'call-1', isError: true } },
      { kind: 'operation_settled', operationId, ...settled },
    ]);
    expect(entries[5]).toMatchObject({ kind: 'operation_started', operationId: next.operationId });
    // The next request paired the call with its result.
    const sent = provider.requests[1]?.request.messages.map((message) => message.role);
    expect(sent).toEqual(['user', 'assistant', 'tool', 'user']);
  });
});

describe('the queue while the session file cannot be written', () => {
  it('puts a withdrawn item back when its withdrawal cannot be recorded, and fails with the stable code', async () => {
    const disk = new FaultyDisk();
    const gate = createDeferred<void>();
    const provider = createScriptedProvider({ turns: [[{ type: 'wait', until: gate.promise }, ...answer('a')]] });
    const harness = await openOn(disk, provider);
    const { operationId } = (await harness.main.prompt([user('first')], BACKGROUND_CONTEXT))._unsafeUnwrap();
    const queued = (await harness.main.followUp(user('later'), BACKGROUND_CONTEXT))._unsafeUnwrap();
    if (queued.kind !== 'queued') throw new Error('expected a queued follow-up');

    disk.fail({ code: 'EIO' });
    await expect(harness.main.withdraw(queued.itemId, BACKGROUND_CONTEXT)).rejects.toMatchObject({
      code: 'session_file_unwritable',
    });
    expect(harness.main.queue.map((item) => item.id)).toEqual([queued.itemId]);

    disk.recover();
    (await harness.main.withdraw(queued.itemId, BACKGROUND_CONTEXT))._unsafeUnwrap();
    expect(harness.main.queue).toEqual([]);
    gate.resolve();
    await harness.main.settled(operationId);
  });

  it('keeps a follow-up waiting when its run cannot be recorded, and starts it with the next send', async () => {
    const disk = new FaultyDisk();
    const gate = createDeferred<void>();
    const provider = createScriptedProvider({
      turns: [[{ type: 'wait', until: gate.promise }, ...answer('a')], answer('b'), answer('c')],
    });
    const harness = await openOn(disk, provider);
    const first = (await harness.main.prompt([user('first')], BACKGROUND_CONTEXT))._unsafeUnwrap();
    (await harness.main.followUp(user('later'), BACKGROUND_CONTEXT))._unsafeUnwrap();

    // The settlement goes through; then the disk fills before the follow-up's run is recorded.
    const settled = nextEvent(harness, 'run_settled');
    const stillQueued = nextEvent(harness, 'queue_changed', (event) => event.queue.length === 1);
    const written = nextEvent(harness, 'entry_appended', (event) => event.entry.kind === 'operation_settled');
    void written.then(() => disk.fail({ code: 'ENOSPC' }));
    gate.resolve();
    await settled;
    await stillQueued;
    expect(harness.main.running).toBeNull();
    expect(harness.main.queue.map((item) => item.message)).toEqual([user('later')]);
    expect(first.operationId).toBeDefined();

    disk.recover();
    const sent = (await harness.main.followUp(user('last'), BACKGROUND_CONTEXT))._unsafeUnwrap();
    expect(sent.kind).toBe('queued');
    await nextEvent(harness, 'run_settled');
    expect(provider.requests[1]?.request.messages.at(-1)).toEqual(user('later'));
  });
});
