import { appendFile, readFile } from 'node:fs/promises';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { describe, expect, it } from 'vitest';
import type { AgentMessage, SessionEntry, UserMessage } from '@pi/agent-contract';
import type { AgentHarness } from './harness-types';
import { openHarness } from './open-harness';
import {
  createDeferred,
  createScriptedProvider,
  harnessTestBed,
  nextEvent,
  readSessionLines,
  testHarnessOptions,
  type ScriptStep,
} from './testing';

const user = (text: string): UserMessage => ({ role: 'user', content: [{ type: 'text', text }] });
const answer = (text: string): ScriptStep[] => [
  { type: 'text_delta', delta: text },
  { type: 'done', stopReason: 'stop' },
];
const textOf = (message: AgentMessage) =>
  message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');

const bed = harnessTestBed();
const open = bed.open;

async function openWith(turns: ReadonlyArray<readonly ScriptStep[]>) {
  const provider = createScriptedProvider({ turns });
  const harness = (
    await openHarness(testHarnessOptions({ file: bed.directory.file, providers: [provider] }))
  )._unsafeUnwrap();
  open.push(harness);
  return { harness, provider };
}

async function reopen(previous: AgentHarness, turns: ReadonlyArray<readonly ScriptStep[]> = []) {
  await previous.close();
  open.splice(open.indexOf(previous), 1);
  return openWith(turns);
}

/** Prompts and waits for the run to settle; returns the run's `operation_settled` entry id. */
async function exchange(harness: AgentHarness, text: string): Promise<string> {
  const settled = nextEvent(harness, 'run_settled');
  const accepted = await harness.main.prompt([user(text)], BACKGROUND_CONTEXT);
  const { operationId } = accepted._unsafeUnwrap();
  await settled;
  const entry = harness.tree
    .entries()
    .find((candidate) => candidate.kind === 'operation_settled' && candidate.operationId === operationId);
  if (entry === undefined) throw new Error(`operation ${operationId} has no settlement`);
  return entry.id;
}

const branchTexts = (harness: AgentHarness) => harness.tree.messages().map(textOf);
const moveLeaf = (harness: AgentHarness, entryId: string | null) =>
  harness.navigation.moveLeaf(entryId, BACKGROUND_CONTEXT);

describe('moving the leaf', () => {
  it('branches the next prompt from an earlier entry, keeping the old branch to return to', async () => {
    const { harness, provider } = await openWith([answer('A1'), answer('A2'), answer('B2')]);
    const first = await exchange(harness, 'one');
    const oldTip = await exchange(harness, 'two');

    expect((await moveLeaf(harness, first))._unsafeUnwrap()).toEqual({ leafId: first, moved: true });
    expect(harness.navigation.leafId).toBe(first);
    expect(branchTexts(harness)).toEqual(['one', 'A1']);
    await exchange(harness, 'two, again');
    // The model saw the branch from the chosen entry on, not the abandoned answer.
    expect(provider.requests[2]?.request.messages.map(textOf)).toEqual(['one', 'A1', 'two, again']);
    expect(branchTexts(harness)).toEqual(['one', 'A1', 'two, again', 'B2']);

    expect((await moveLeaf(harness, oldTip))._unsafeUnwrap().moved).toBe(true);
    expect(branchTexts(harness)).toEqual(['one', 'A1', 'two', 'A2']);
    expect(harness.navigation.leafId).toBe(oldTip);
  });

  it('writes one synced leaf_moved entry, the child of the target, naming where the leaf was', async () => {
    const { harness } = await openWith([answer('A1'), answer('A2')]);
    const first = await exchange(harness, 'one');
    const second = await exchange(harness, 'two');
    await moveLeaf(harness, first);
    const lines = await readSessionLines(bed.directory.file);
    expect(lines.at(-1)).toEqual(expect.objectContaining({ kind: 'leaf_moved', parentId: first, from: second }));
    expect(harness.tree.leafId).toBe(lines.at(-1)?.['id']);
  });

  it('keeps the moved leaf across a restart', async () => {
    const { harness } = await openWith([answer('A1'), answer('A2')]);
    const first = await exchange(harness, 'one');
    await exchange(harness, 'two');
    await moveLeaf(harness, first);
    const { harness: restarted } = await reopen(harness, [answer('B2')]);
    expect(restarted.navigation.leafId).toBe(first);
    expect(branchTexts(restarted)).toEqual(['one', 'A1']);
    await exchange(restarted, 'three');
    expect(branchTexts(restarted)).toEqual(['one', 'A1', 'three', 'B2']);
  });

  it('moves to before the first entry (null): the next prompt starts a new root', async () => {
    const { harness } = await openWith([answer('A1'), answer('B1')]);
    await exchange(harness, 'one');
    expect((await moveLeaf(harness, null))._unsafeUnwrap()).toEqual({ leafId: null, moved: true });
    expect(harness.tree.messages()).toEqual([]);
    await exchange(harness, 'fresh');
    expect(branchTexts(harness)).toEqual(['fresh', 'B1']);
    const firstNode = harness.navigation.list(0, 1).nodes[0];
    expect(firstNode?.parentId).toBeNull();
  });

  it('writes nothing when the leaf is there already', async () => {
    const { harness } = await openWith([answer('A1')]);
    const first = await exchange(harness, 'one');
    const before = await readFile(bed.directory.file, 'utf8');
    expect((await moveLeaf(harness, first))._unsafeUnwrap()).toEqual({ leafId: first, moved: false });
    expect(await readFile(bed.directory.file, 'utf8')).toBe(before);
  });

  it('is refused as busy while a run is in progress, and writes nothing', async () => {
    const release = createDeferred<void>();
    const { harness } = await openWith([answer('A1'), [{ type: 'wait', until: release.promise }, ...answer('A2')]]);
    const first = await exchange(harness, 'one');
    const settled = nextEvent(harness, 'run_settled');
    const running = (await harness.main.prompt([user('two')], BACKGROUND_CONTEXT))._unsafeUnwrap().operationId;
    const before = await readFile(bed.directory.file, 'utf8');
    const refused = (await moveLeaf(harness, first))._unsafeUnwrapErr();
    expect(refused).toEqual(expect.objectContaining({ code: 'busy', operationId: running }));
    expect(await readFile(bed.directory.file, 'utf8')).toBe(before);
    release.resolve();
    await settled;
    expect((await moveLeaf(harness, first))._unsafeUnwrap().moved).toBe(true);
  });

  it('refuses an unknown id, a leaf move and an entry inside an operation with stable codes', async () => {
    const { harness } = await openWith([answer('A1'), answer('A2')]);
    const first = await exchange(harness, 'one');
    await exchange(harness, 'two');
    await moveLeaf(harness, first);
    const move = harness.tree.leafId ?? '';
    const userEntry = harness.tree.entries().find((entry) => entry.kind === 'message' && entry.message.role === 'user');
    expect((await moveLeaf(harness, 'no-such-entry'))._unsafeUnwrapErr().code).toBe('unknown_entry');
    expect((await moveLeaf(harness, move))._unsafeUnwrapErr().code).toBe('unknown_entry');
    expect((await moveLeaf(harness, userEntry?.id ?? ''))._unsafeUnwrapErr().code).toBe('not_resting_point');
  });
});

describe('listing the tree', () => {
  it('lists every entry but leaf moves in file order, parents resolved through moves, the current branch marked', async () => {
    const { harness } = await openWith([answer('A1'), answer('A2'), answer('B2')]);
    const first = await exchange(harness, 'one');
    await exchange(harness, 'two');
    await moveLeaf(harness, first);
    const tip = await exchange(harness, 'two, again');

    const page = harness.navigation.list(0, 100);
    const entries = harness.tree.entries().filter((entry) => entry.kind !== 'leaf_moved');
    expect(page.total).toBe(12);
    expect(page.leafId).toBe(tip);
    expect(page.nodes.map((node) => node.entry.id)).toEqual(entries.map((entry) => entry.id));
    // The new branch's first entry hangs under the entry the leaf moved to, not under the move.
    const branchStart = page.nodes[8];
    expect(branchStart?.entry.kind).toBe('operation_started');
    expect(branchStart?.parentId).toBe(first);
    expect(page.nodes.filter((node) => node.onCurrentBranch).map((node) => node.entry.id)).toEqual(
      harness.tree.branch().flatMap((entry: SessionEntry) => (entry.kind === 'leaf_moved' ? [] : [entry.id])),
    );
    // Resting points: the settlements (no run open there).
    expect(page.nodes.filter((node) => node.restingPoint).map((node) => node.entry.kind)).toEqual([
      'operation_settled',
      'operation_settled',
      'operation_settled',
    ]);
  });

  it('pages by offset and limit', async () => {
    const { harness } = await openWith([answer('A1'), answer('A2')]);
    await exchange(harness, 'one');
    await exchange(harness, 'two');
    const all = harness.navigation.list(0, 100).nodes.map((node) => node.entry.id);
    const pages = [0, 3, 6].map((offset) => harness.navigation.list(offset, 3));
    expect(pages.flatMap((page) => page.nodes.map((node) => node.entry.id))).toEqual(all);
    expect(pages.map((page) => page.offset)).toEqual([0, 3, 6]);
    expect(harness.navigation.list(100, 3)).toEqual(expect.objectContaining({ total: 8, nodes: [] }));
    expect(() => harness.navigation.list(-1, 3)).toThrow(RangeError);
  });
});

describe('the session file with leaf moves', () => {
  it('cuts a torn leaf move off the end: the leaf is where it was before the move', async () => {
    const { harness } = await openWith([answer('A1'), answer('A2')]);
    const first = await exchange(harness, 'one');
    const second = await exchange(harness, 'two');
    await harness.close();
    open.splice(0);
    const torn = JSON.stringify({
      id: 'torn',
      parentId: first,
      timestamp: new Date().toISOString(),
      kind: 'leaf_moved',
      from: second,
    });
    await appendFile(bed.directory.file, torn.slice(0, 40));
    const { harness: restored } = await openWith([]);
    expect(restored.recovery).toEqual([expect.stringContaining('dropped a torn final line')]);
    expect(restored.navigation.leafId).toBe(second);
    expect(branchTexts(restored)).toEqual(['one', 'A1', 'two', 'A2']);
  });
});
