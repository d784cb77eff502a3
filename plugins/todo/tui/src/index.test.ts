import { afterEach, describe, expect, it } from 'vitest';
import { startTestTuiHost } from '@pi/host-tui/testing';
import { BACKGROUND_CONTEXT, Views, type ViewDelta, type ViewRecord } from '@pi/plugin-api';
import { createRemoteEvents, createRemoteState } from '@pi/remote';
import { TRANSPORTS, startRpcFixture } from '@pi/test-support';
import { TODO_PLUGIN_ID, type TodoList } from '@pi/todo';
import todoTuiFacet from './index';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const list = (items: TodoList['items']): TodoList => ({ items, nextId: items.length + 1 });

describe.each(TRANSPORTS)('@pi/todo-tui over %s', (transport) => {
  it('shows the session’s todo panel above the transcript and follows its changes', async () => {
    const panel = (state: TodoList, version: number): ViewRecord => ({
      viewId: `${TODO_PLUGIN_ID}:list`,
      component: 'todo.panel',
      state,
      to: 'all',
      durable: true,
      version,
    });
    const open = createRemoteState<ViewRecord[]>([panel(list([]), 1)]);
    const deltas = createRemoteEvents<ViewDelta>();
    const rpc = await startRpcFixture(transport, {
      provide: (registry) =>
        registry.provide(Views, { open, deltas, message: async () => undefined, show: async () => undefined }),
    });
    cleanups.push(() => rpc.close());
    const tui = await startTestTuiHost({ facets: { [TODO_PLUGIN_ID]: todoTuiFacet }, client: await rpc.connect() });
    cleanups.push(() => tui.stop());
    await tui.waitForScreen((screen) => screen.includes('connected'));
    expect(tui.screen()).not.toContain('Todo');

    const two = list([
      { id: 1, text: 'write the parser', done: true },
      { id: 2, text: 'test it', done: false },
    ]);
    // As the session's own cell does, the snapshot holds the newest state too: a watch not yet made still sees it.
    open.set([panel(two, 2)], BACKGROUND_CONTEXT);
    deltas.emit(
      { type: 'view_state', viewId: `${TODO_PLUGIN_ID}:list`, state: two, to: 'all', version: 2 },
      BACKGROUND_CONTEXT,
    );
    const screen = await tui.waitForScreen((text) => text.includes('Todo · 1/2 done'));
    expect(screen.split('\n').slice(0, 3)).toEqual([
      expect.stringContaining('Todo · 1/2 done'),
      expect.stringContaining('✓ 1. write the parser'),
      expect.stringContaining('○ 2. test it'),
    ]);
    expect(tui.host.failures()).toEqual([]);
  });
});
