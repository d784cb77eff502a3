import { readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { describe, expect, it } from 'vitest';
import type { AgentMessage, UserMessage } from '@pi/agent-contract';
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

async function openAt(file: string, turns: ReadonlyArray<readonly ScriptStep[]> = []): Promise<AgentHarness> {
  const provider = createScriptedProvider({ turns });
  const harness = (await openHarness(testHarnessOptions({ file, providers: [provider] })))._unsafeUnwrap();
  open.push(harness);
  return harness;
}

async function exchange(harness: AgentHarness, text: string): Promise<string> {
  const settled = nextEvent(harness, 'run_settled');
  const { operationId } = (await harness.main.prompt([user(text)], BACKGROUND_CONTEXT))._unsafeUnwrap();
  await settled;
  const entry = harness.tree
    .entries()
    .find((candidate) => candidate.kind === 'operation_settled' && candidate.operationId === operationId);
  if (entry === undefined) throw new Error(`operation ${operationId} has no settlement`);
  return entry.id;
}

describe('forking a session', () => {
  it('writes a new session file beside this one holding the branch up to the entry; the original is untouched', async () => {
    const harness = await openAt(bed.directory.file, [answer('A1'), answer('A2')]);
    const first = await exchange(harness, 'one');
    await exchange(harness, 'two');
    const original = await readFile(bed.directory.file, 'utf8');

    const forked = (await harness.navigation.fork(first, BACKGROUND_CONTEXT))._unsafeUnwrap();
    expect(forked.sessionId).not.toBe(harness.sessionId);
    expect(forked.file).toBe(join(dirname(bed.directory.file), `${forked.sessionId}.jsonl`));
    expect(forked.entries).toBe(4);
    expect(await readFile(bed.directory.file, 'utf8')).toBe(original);
    expect((await stat(forked.file)).mode & 0o777).toBe(0o600);
    // Only the two session files: the temporary file is gone.
    expect((await readdir(dirname(bed.directory.file))).sort()).toEqual(
      [basename(bed.directory.file), basename(forked.file), `${basename(bed.directory.file)}.lock`].sort(),
    );

    const [header] = await readSessionLines(forked.file);
    expect(header).toEqual(
      expect.objectContaining({
        type: 'session',
        sessionId: forked.sessionId,
        cwd: '/workspace',
        forkedFrom: { sessionId: harness.sessionId, entryId: first },
      }),
    );
    const copy = await openAt(forked.file, [answer('F2')]);
    expect(copy.sessionId).toBe(forked.sessionId);
    expect(copy.recovery).toEqual([]);
    expect(copy.tree.messages().map(textOf)).toEqual(['one', 'A1']);
    expect(copy.tree.branch().map((entry) => entry.id)).toEqual(
      harness.tree
        .branch()
        .slice(0, 4)
        .map((entry) => entry.id),
    );
    await exchange(copy, 'two, in the fork');
    expect(copy.tree.messages().map(textOf)).toEqual(['one', 'A1', 'two, in the fork', 'F2']);
    expect(await readFile(bed.directory.file, 'utf8')).toBe(original);
  });

  it('copies the branch without leaf moves, each entry the child of the one before', async () => {
    const harness = await openAt(bed.directory.file, [answer('A1'), answer('A2'), answer('B2')]);
    const first = await exchange(harness, 'one');
    await exchange(harness, 'two');
    await harness.navigation.moveLeaf(first, BACKGROUND_CONTEXT);
    const tip = await exchange(harness, 'two, again');

    const forked = (await harness.navigation.fork(tip, BACKGROUND_CONTEXT))._unsafeUnwrap();
    const entries = (await readSessionLines(forked.file)).slice(1);
    expect(entries.map((entry) => entry['kind'])).not.toContain('leaf_moved');
    expect(entries.map((entry) => entry['parentId'])).toEqual([
      null,
      ...entries.slice(0, -1).map((entry) => entry['id']),
    ]);
    const copy = await openAt(forked.file);
    expect(copy.tree.messages().map(textOf)).toEqual(['one', 'A1', 'two, again', 'B2']);
  });

  it('leaves out what was queued and not yet delivered on the copied branch: the fork starts with an empty queue', async () => {
    const release = createDeferred<void>();
    const harness = await openAt(bed.directory.file, [
      [{ type: 'wait', until: release.promise }, ...answer('A1')],
      answer('A2'),
    ]);
    const settledTwice = new Promise<void>((resolve) => {
      let runs = 0;
      harness.events.subscribe((event) => {
        if (event.type === 'run_settled' && ++runs === 2) resolve();
      });
    });
    await harness.main.prompt([user('one')], BACKGROUND_CONTEXT);
    expect((await harness.main.followUp(user('then two'), BACKGROUND_CONTEXT))._unsafeUnwrap().kind).toBe('queued');
    release.resolve();
    await settledTwice;
    const firstEnd = harness.tree.entries().find((entry) => entry.kind === 'operation_settled');

    // Run one's end: the follow-up was queued during run one and delivered after it, so it is not part of the fork.
    const forked = (await harness.navigation.fork(firstEnd?.id ?? null, BACKGROUND_CONTEXT))._unsafeUnwrap();
    const copy = await openAt(forked.file);
    expect(copy.main.queue).toEqual([]);
    expect(copy.tree.entries().map((entry) => entry.kind)).not.toContain('queue_added');
    expect(copy.tree.messages().map(textOf)).toEqual(['one', 'A1']);

    // The whole branch: the follow-up is there with its delivery, as history.
    const whole = (await harness.navigation.fork(harness.navigation.leafId, BACKGROUND_CONTEXT))._unsafeUnwrap();
    const wholeCopy = await openAt(whole.file);
    expect(wholeCopy.main.queue).toEqual([]);
    expect(wholeCopy.tree.entries().map((entry) => entry.kind)).toContain('queue_added');
    expect(wholeCopy.tree.messages().map(textOf)).toEqual(['one', 'A1', 'then two', 'A2']);
  });

  it('forks from before the first entry (null) into an empty session', async () => {
    const harness = await openAt(bed.directory.file, [answer('A1')]);
    await exchange(harness, 'one');
    const forked = (await harness.navigation.fork(null, BACKGROUND_CONTEXT))._unsafeUnwrap();
    expect(forked.entries).toBe(0);
    expect(await readSessionLines(forked.file)).toHaveLength(1);
  });

  it('may fork while a run is in progress, from an entry outside it', async () => {
    const release = createDeferred<void>();
    const harness = await openAt(bed.directory.file, [
      answer('A1'),
      [{ type: 'wait', until: release.promise }, ...answer('A2')],
    ]);
    const first = await exchange(harness, 'one');
    const settled = nextEvent(harness, 'run_settled');
    await harness.main.prompt([user('two')], BACKGROUND_CONTEXT);
    const forked = (await harness.navigation.fork(first, BACKGROUND_CONTEXT))._unsafeUnwrap();
    expect(forked.entries).toBe(4);
    release.resolve();
    await settled;
  });

  it('refuses an unknown entry and one inside an operation, writing nothing', async () => {
    const harness = await openAt(bed.directory.file, [answer('A1')]);
    await exchange(harness, 'one');
    const userEntry = harness.tree.entries().find((entry) => entry.kind === 'message');
    const before = await readdir(dirname(bed.directory.file));
    expect((await harness.navigation.fork('nope', BACKGROUND_CONTEXT))._unsafeUnwrapErr().code).toBe('unknown_entry');
    expect((await harness.navigation.fork(userEntry?.id ?? '', BACKGROUND_CONTEXT))._unsafeUnwrapErr().code).toBe(
      'not_resting_point',
    );
    expect(await readdir(dirname(bed.directory.file))).toEqual(before);
  });

  it('never overwrites an existing file', async () => {
    const harness = await openAt(bed.directory.file, [answer('A1')]);
    const first = await exchange(harness, 'one');
    const taken = join(bed.directory.dir, 'taken.jsonl');
    await writeFile(taken, 'mine\n');
    await expect(harness.navigation.fork(first, BACKGROUND_CONTEXT, { file: taken })).rejects.toThrow(/EEXIST/);
    expect(await readFile(taken, 'utf8')).toBe('mine\n');
    expect((await readdir(bed.directory.dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});
