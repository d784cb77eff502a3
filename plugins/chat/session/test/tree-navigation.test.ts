import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openHarness } from '@pi/agent';
import { MAX_TREE_PAGE, Tree, type SessionTreeService, type TranscriptEntry, type TreeNode } from '@pi/chat';
import { BACKGROUND_CONTEXT } from '@pi/context';
import type { TestSessionHost } from '@pi/host-session/testing';
import { eventually, remoteErrorOf } from '@pi/test-support';
import { observeChat, sessionDirectory, startChatHost, type ChatObserver, type Transport } from './chat-host';
import { pacedProvider, words } from './paced-provider';

const settledRuns = (observer: ChatObserver) => observer.events.filter((event) => event.type === 'settled').length;

async function promptToEnd(observer: ChatObserver, text: string): Promise<void> {
  const before = settledRuns(observer);
  const response = await observer.chat.prompt({ text }, BACKGROUND_CONTEXT);
  expect(response.accepted).toBe(true);
  await eventually(() => settledRuns(observer) > before && observer.transcript.running === null);
}

/** A client of `host` with the Tree service and an observed Chat on the same connection. */
async function treeClient(host: TestSessionHost): Promise<{ tree: SessionTreeService; observer: ChatObserver }> {
  const client = await host.connect();
  const observer = await observeChat(client);
  return { tree: await client.use(Tree), observer };
}

async function allNodes(tree: SessionTreeService): Promise<TreeNode[]> {
  return (await tree.list({ offset: 0, limit: MAX_TREE_PAGE }, BACKGROUND_CONTEXT)).nodes;
}

const ids = (entries: readonly TranscriptEntry[]) => entries.map((entry) => entry.id);

/** The replica holds exactly `expected` (the whole branch). */
async function converges(observer: ChatObserver, expected: readonly TranscriptEntry[]): Promise<void> {
  await eventually(
    () =>
      observer.transcript.synced &&
      observer.transcript.firstIndex === 0 &&
      ids(observer.transcript.entries).join() === ids(expected).join(),
  );
  expect(observer.transcript.entries).toEqual(expected);
}

const userTexts = (observer: ChatObserver) =>
  observer.transcript.entries.flatMap((entry) => (entry.kind === 'user' ? [entry.text] : []));

describe.each<Transport>(['loopback', 'websocket'])('tree navigation over %s', (transport) => {
  it('a prompt after a move branches; moving back brings the old branch back to every client', async () => {
    const host = await startChatHost(transport, pacedProvider(words(3)));
    const { tree, observer: first } = await treeClient(host);
    const { observer: second } = await treeClient(host);
    await promptToEnd(first, 'one');
    await promptToEnd(first, 'two');
    const oldBranch = [...first.transcript.entries];
    const firstEnd = oldBranch[3];
    const oldTip = oldBranch.at(-1);
    expect(firstEnd?.kind).toBe('run_settled');

    const moved = await tree.navigate({ entryId: firstEnd?.id ?? null }, BACKGROUND_CONTEXT);
    expect(moved).toEqual({ leafId: firstEnd?.id, moved: true });
    for (const observer of [first, second]) await converges(observer, oldBranch.slice(0, 4));

    await promptToEnd(second, 'two, again');
    await converges(first, second.transcript.entries);
    expect(userTexts(first)).toEqual(['one', 'two, again']);
    const nodes = await allNodes(tree);
    // Both branches are in the tree: the end of run one has two children, the current branch is marked.
    expect(nodes.filter((node) => node.parentId === firstEnd?.id).map((node) => node.kind)).toEqual([
      'run_started',
      'run_started',
    ]);
    expect(nodes.filter((node) => node.current).map((node) => node.id)).toEqual(ids(first.transcript.entries));
    expect(nodes.filter((node) => node.kind === 'user').map((node) => node.text)).toEqual(['one', 'two', 'two, again']);

    await tree.navigate({ entryId: oldTip?.id ?? null }, BACKGROUND_CONTEXT);
    for (const observer of [first, second]) await converges(observer, oldBranch);
    const late = await observeChat(host);
    await converges(late, oldBranch);
    expect((await tree.list({ offset: 0, limit: 1 }, BACKGROUND_CONTEXT)).leafId).toBe(oldTip?.id);
  });

  it('moving to before the first entry empties the transcript; the next prompt starts a new root', async () => {
    const host = await startChatHost(transport, pacedProvider(words(2)));
    const { tree, observer } = await treeClient(host);
    await promptToEnd(observer, 'one');
    expect(await tree.navigate({ entryId: null }, BACKGROUND_CONTEXT)).toEqual({ leafId: null, moved: true });
    await converges(observer, []);
    await promptToEnd(observer, 'fresh');
    expect(userTexts(observer)).toEqual(['fresh']);
    const roots = (await allNodes(tree)).filter((node) => node.parentId === null);
    expect(roots).toHaveLength(2);
  });

  it('fork writes a new session file that starts with the chosen history; the session is untouched', async () => {
    const host = await startChatHost(transport, pacedProvider(words(3)));
    const { tree, observer } = await treeClient(host);
    await promptToEnd(observer, 'one');
    await promptToEnd(observer, 'two');
    const branch = [...observer.transcript.entries];
    const firstEnd = branch[3];
    const original = await readFile(host.sessionFile, 'utf8');

    const forked = await tree.fork({ entryId: firstEnd?.id ?? null }, BACKGROUND_CONTEXT);
    expect(forked.entries).toBe(4);
    expect(forked.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await readFile(host.sessionFile, 'utf8')).toBe(original);
    expect(observer.transcript.entries).toEqual(branch);

    // The fork is a session file beside this one, named by its id: a harness opens it with that history.
    const file = join(dirname(host.sessionFile), `${forked.sessionId}.jsonl`);
    const opened = await openHarness({
      file,
      cwd: host.directory,
      tools: () => new Map(),
      providers: () => new Map(),
      settings: () => ({ model: null, thinkingLevel: 'off' }),
    });
    const harness = opened._unsafeUnwrap();
    try {
      expect(harness.sessionId).toBe(forked.sessionId);
      expect(harness.tree.branch().map((entry) => entry.id)).toEqual(ids(branch.slice(0, 4)));
      expect(harness.tree.messages().map((message) => message.role)).toEqual(['user', 'assistant']);
    } finally {
      await harness.close();
    }
  });

  it('a restarted session keeps the moved leaf', async () => {
    const directory = await sessionDirectory();
    const host = await startChatHost(transport, pacedProvider(words(2)), { directory });
    const { tree, observer } = await treeClient(host);
    await promptToEnd(observer, 'one');
    await promptToEnd(observer, 'two');
    const kept = observer.transcript.entries.slice(0, 4);
    await tree.navigate({ entryId: kept.at(-1)?.id ?? null }, BACKGROUND_CONTEXT);
    await host.close();

    const restarted = await startChatHost(transport, pacedProvider(words(2)), { directory });
    const { tree: again, observer: after } = await treeClient(restarted);
    await converges(after, kept);
    expect((await again.list({ offset: 0, limit: 1 }, BACKGROUND_CONTEXT)).leafId).toBe(kept.at(-1)?.id);
    await promptToEnd(after, 'three');
    expect(userTexts(after)).toEqual(['one', 'three']);
  });

  it('a move during a run is refused as busy, naming the run; nothing changes', async () => {
    const provider = pacedProvider(words(6), 2);
    const host = await startChatHost(transport, provider);
    const { tree, observer } = await treeClient(host);
    const response = await observer.chat.prompt({ text: 'one' }, BACKGROUND_CONTEXT);
    await provider.paused;
    const before = await readFile(host.sessionFile, 'utf8');
    const refused = await remoteErrorOf(tree.navigate({ entryId: null }, BACKGROUND_CONTEXT));
    expect(refused.code).toBe('busy');
    expect(refused.data).toEqual({ operationId: response.operationId });
    expect(await readFile(host.sessionFile, 'utf8')).toBe(before);
    provider.resume();
    await eventually(() => settledRuns(observer) === 1);
  });

  it('refuses unknown entries, entries inside a run and malformed arguments with stable codes', async () => {
    const host = await startChatHost(transport, pacedProvider(words(2)));
    const { tree, observer } = await treeClient(host);
    await promptToEnd(observer, 'one');
    const user = observer.transcript.entries.find((entry) => entry.kind === 'user');
    const call = (promise: Promise<unknown>) => remoteErrorOf(promise).then((error) => error.code);
    expect(await call(tree.navigate({ entryId: 'no-such-entry' }, BACKGROUND_CONTEXT))).toBe('unknown_entry');
    expect(await call(tree.fork({ entryId: 'no-such-entry' }, BACKGROUND_CONTEXT))).toBe('unknown_entry');
    expect(await call(tree.navigate({ entryId: user?.id ?? '' }, BACKGROUND_CONTEXT))).toBe('not_resting_point');
    expect(await call(tree.fork({ entryId: user?.id ?? '' }, BACKGROUND_CONTEXT))).toBe('not_resting_point');
    expect(await call(tree.navigate({ entryId: '' }, BACKGROUND_CONTEXT))).toBe('invalid_argument');
    expect(await call(tree.navigate({ entryId: 'x'.repeat(257) }, BACKGROUND_CONTEXT))).toBe('invalid_argument');
    expect(await call(tree.list({ offset: 0, limit: MAX_TREE_PAGE + 1 }, BACKGROUND_CONTEXT))).toBe('invalid_argument');
    expect(await call(tree.list({ offset: -1, limit: 1 }, BACKGROUND_CONTEXT))).toBe('invalid_argument');
  });

  it('reads one entry whole, on any branch; a leaf move or an unknown id is unknown_entry', async () => {
    const host = await startChatHost(transport, pacedProvider(words(2)));
    const { tree, observer } = await treeClient(host);
    const long = `first line\n${'x'.repeat(300)}`;
    await promptToEnd(observer, long);
    const user = observer.transcript.entries[1];
    await tree.navigate({ entryId: null }, BACKGROUND_CONTEXT);
    await converges(observer, []);
    const node = (await allNodes(tree)).find((candidate) => candidate.id === user?.id);
    expect(node?.text).toHaveLength(200);
    expect(await tree.entry({ entryId: user?.id ?? '' }, BACKGROUND_CONTEXT)).toEqual({ entry: user });
    const call = (entryId: string) => remoteErrorOf(tree.entry({ entryId }, BACKGROUND_CONTEXT)).then((e) => e.code);
    expect(await call('no-such-entry')).toBe('unknown_entry');
    const lines = (await readFile(host.sessionFile, 'utf8')).trim().split('\n');
    const move = JSON.parse(lines.at(-1) ?? '{}') as { id: string; kind: string };
    expect(move.kind).toBe('leaf_moved');
    expect(await call(move.id)).toBe('unknown_entry');
  });

  it('pages the tree: offsets are stable, every node is listed once', async () => {
    const host = await startChatHost(transport, pacedProvider(words(2)));
    const { tree, observer } = await treeClient(host);
    await promptToEnd(observer, 'one');
    await promptToEnd(observer, 'two');
    const all = await allNodes(tree);
    const paged: TreeNode[] = [];
    for (let offset = 0; offset < all.length; offset += 3)
      paged.push(...(await tree.list({ offset, limit: 3 }, BACKGROUND_CONTEXT)).nodes);
    expect(paged).toEqual(all);
    expect((await tree.list({ offset: all.length, limit: 3 }, BACKGROUND_CONTEXT)).nodes).toEqual([]);
  });
});
