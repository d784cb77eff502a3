import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { startTestSessionHost, type TestSessionHost } from '@pi/host-session/testing';
import { writeFile } from 'node:fs/promises';
import { BACKGROUND_CONTEXT, Storage, ViewReplica, Views, type AnyAgentTool } from '@pi/plugin-api';
import { TRANSPORTS, eventually, type TransportKind } from '@pi/test-support';
import { TODO_PLUGIN_ID, TODO_TOOL_NAME, type TodoList } from '@pi/todo';
import todoSessionFacet from './index';

const fixtures: TestSessionHost[] = [];
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((fixture) => fixture.close()));
});

/** A session with the todo plugin, the tool as the harness runs it, and a client's replica of the panel. */
async function start(transport: TransportKind, directory?: string) {
  let tool: AnyAgentTool | undefined;
  const fixture = await startTestSessionHost({
    transport,
    ...(directory === undefined ? {} : { directory }),
    facets: [
      { id: TODO_PLUGIN_ID, facet: todoSessionFacet },
      {
        id: '@t/driver',
        facet: (context) => void context.tools.onRebuild((tools) => (tool = tools.get(TODO_TOOL_NAME))),
      },
    ],
  });
  fixtures.push(fixture);
  const client = await fixture.connect();
  const views = await client.use(Views);
  const replica = new ViewReplica();
  views.open.subscribe((records) => replica.applyOpen(records));
  views.deltas.subscribe((delta) => replica.applyDelta(delta));
  await eventually(() => tool !== undefined);
  const run = (args: object) => (tool as AnyAgentTool).execute(args, BACKGROUND_CONTEXT);
  const list = () => replica.list()[0]?.state as TodoList | undefined;
  const storage = await client.use(Storage);
  return { fixture, run, list, replica, storage };
}

describe.each(TRANSPORTS)('@pi/todo-session over %s', (transport) => {
  it('shows every client the list the model keeps with the todo tool, live', async () => {
    const { run, list, replica } = await start(transport);
    expect(replica.list()).toMatchObject([{ viewId: `${TODO_PLUGIN_ID}:list`, component: 'todo.panel', to: 'all' }]);

    await run({ action: 'add', text: 'write the parser' });
    const added = await run({ action: 'add', text: 'test it' });
    expect(added.content[0]?.text).toBe('[ ] 1. write the parser\n[ ] 2. test it');
    await run({ action: 'done', id: 1 });
    await eventually(() => list()?.items[0]?.done === true);
    await run({ action: 'remove', id: 2 });
    await eventually(() => list()?.items.length === 1);
    expect(list()).toEqual({ items: [{ id: 1, text: 'write the parser', done: true }], nextId: 3 });
  });

  it('refuses a call it cannot apply with an error result that shows the list', async () => {
    const { run } = await start(transport);
    const missing = await run({ action: 'done', id: 7 });
    expect(missing).toMatchObject({
      isError: true,
      content: [{ text: 'There is no entry 7.\nThe todo list is empty.' }],
    });
    expect((await run({ action: 'add' })).content[0]?.text).toMatch(/^add needs a text/);
  });

  it('keeps the list when the session restarts', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'pi-todo-'));
    onTestFinished(() => rm(directory, { recursive: true, force: true }));
    const first = await start(transport, directory);
    await first.run({ action: 'add', text: 'survive a restart' });
    fixtures.splice(fixtures.indexOf(first.fixture), 1);
    await first.fixture.close();

    const second = await start(transport, directory);
    expect(second.list()).toEqual({ items: [{ id: 1, text: 'survive a restart', done: false }], nextId: 2 });
    await second.run({ action: 'add', text: 'and go on' });
    await eventually(() => second.list()?.items.length === 2);
  });

  it("keeps the list as the plugin's stored value, which clients receive too", async () => {
    const { run, storage } = await start(transport);
    await run({ action: 'add', text: 'stored' });
    await eventually(() => JSON.stringify(storage.values.value).includes('stored'));
    expect(storage.values.value).toEqual([
      {
        plugin: TODO_PLUGIN_ID,
        namespace: 'todo',
        key: 'list',
        value: { items: [{ id: 1, text: 'stored', done: false }], nextId: 2 },
      },
    ]);
  });

  it('takes over a list that a session from before bound storage kept in its durable view', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'pi-todo-'));
    onTestFinished(() => rm(directory, { recursive: true, force: true }));
    const sessionFile = join(directory, 'data', 'sessions', 'test.jsonl');
    const first = await start(transport, directory);
    fixtures.splice(fixtures.indexOf(first.fixture), 1);
    await first.fixture.close();
    const old = { items: [{ id: 4, text: 'from the view', done: false }], nextId: 5 };
    const view = {
      viewId: `${TODO_PLUGIN_ID}:list`,
      owner: TODO_PLUGIN_ID,
      component: 'todo.panel',
      state: old,
      to: 'all',
    };
    await writeFile(`${sessionFile}.views.json`, JSON.stringify({ views: [view] }));
    await rm(`${sessionFile}.storage.json`, { force: true });

    const second = await start(transport, directory);
    expect(second.list()).toEqual(old);
    await eventually(() => JSON.stringify(second.storage.values.value).includes('from the view'));
    expect(second.storage.values.value.map((stored) => stored.value)).toEqual([old]);
  });
});
