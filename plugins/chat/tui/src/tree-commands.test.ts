import { afterEach, describe, expect, it } from 'vitest';
import { Tree } from '@pi/chat';
import { startTestTuiHost, type TestTuiHost } from '@pi/host-tui/testing';
import { RemoteError, type CodingAgentTuiPluginContext } from '@pi/plugin-api';
import { eventually, startRpcFixture } from '@pi/test-support';
import { ADOPT_SESSION_COMMAND, WHOLE_BRANCH_ROW, registerTreeCommands } from './tree-commands';
import { standInTree, type StandInTree } from './testing/stand-in-tree';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Fixture {
  readonly tui: TestTuiHost;
  /** The facet's context, as the commands see it. */
  readonly context: CodingAgentTuiPluginContext;
  readonly tree: StandInTree;
  shows(text: string): Promise<void>;
}

/** A stand-in session serving Tree over loopback (none when `tree` is null), and a test TUI with the commands. */
async function startFixture(tree: StandInTree | null = standInTree()): Promise<Fixture> {
  const rpc = await startRpcFixture('loopback', {
    provide: (registry) => void (tree === null ? undefined : registry.provide(Tree, tree)),
  });
  cleanups.push(() => rpc.close());
  let captured: CodingAgentTuiPluginContext | undefined;
  const tui = await startTestTuiHost({
    facets: {
      '@pi/chat': (context) => {
        captured = context;
        registerTreeCommands(context);
      },
    },
    client: await rpc.connect(),
    columns: 120,
    rows: 30,
  });
  cleanups.push(() => tui.stop());
  const shows = (text: string) =>
    eventually(() => {
      tui.host.flush();
      return tui.screen().includes(text);
    });
  if (captured === undefined) throw new Error('the facet did not run');
  return { tui, tree: tree ?? standInTree(), shows, context: captured };
}

describe('/tree', () => {
  it('shows the tree’s messages with its branches, the current branch marked and where the leaf is', async () => {
    const { tui, shows } = await startFixture();
    await tui.type('/tree\r');
    await shows('Session tree · 6 messages · 2 branches');
    const screen = tui.screen();
    expect(screen).toContain('● you: one');
    expect(screen).toContain('├─ you: two');
    expect(screen).toContain('●   └─ you: two, again');
    expect(screen).toContain('ai: A3  ← here');
    expect(tui.host.failures()).toEqual([]);
  });

  it('choosing an answer moves the leaf to the end of its run', async () => {
    const { tui, tree, shows } = await startFixture();
    await tui.type('/tree\r');
    await shows('Session tree');
    await tui.type('ai: a2\r');
    await shows('Moved to "ai: A2": the next prompt continues from there');
    expect(tree.navigated).toEqual(['e2']);
  });

  it('choosing a prompt goes back before its run and puts the whole message in the editor', async () => {
    const { tui, tree, shows } = await startFixture();
    await tui.type('/tree\r');
    await shows('Session tree');
    await tui.type('you: two\r');
    await shows('it is in the editor to edit and send again');
    expect(tree.navigated).toEqual(['e1']);
    expect(tui.screen()).toContain('two (whole)');
  });

  it('keeps a draft the user was writing (the command run by id, as a key would)', async () => {
    const { tui, tree, shows, context } = await startFixture();
    context.editor.setText('my draft');
    const ran = context.commands.run('tree.open');
    await shows('Session tree');
    await tui.type('you: two\r');
    await ran;
    await shows('Back before your message (your draft stays in the editor)');
    expect(tree.navigated).toEqual(['e1']);
    expect(context.editor.text()).toBe('my draft');
  });

  it('a refusal is one notice in words', async () => {
    const tree = standInTree();
    tree.fail = new RemoteError('busy', 'A run is in progress');
    const { tui, shows } = await startFixture(tree);
    await tui.type('/tree\r');
    await shows('Session tree');
    await tui.type('ai: a2\r');
    await shows('Session tree: a run is in progress: esc interrupts it, or wait until it ends');
  });

  it('a session without the tree says so', async () => {
    const { tui, shows } = await startFixture(null);
    await tui.type('/tree\r');
    await shows('Session tree: this session does not serve the session tree');
  });
});

describe('/fork', () => {
  it('forks before a chosen prompt of the current branch and tells the new session’s id', async () => {
    const { tui, tree, shows } = await startFixture();
    await tui.type('/fork\r');
    await shows(WHOLE_BRANCH_ROW);
    expect(tui.screen()).not.toContain('you: two\n');
    await tui.type('you: one\r');
    await shows('Forked into session forked-session-1 (4 entries of this branch).');
    expect(tree.forked).toEqual([null]);
    expect(tui.screen()).toContain('Without a coordinator it is not running.');
    expect(tui.screen()).toContain('pi-session --session forked-session-1');
    expect(tui.screen()).toContain('pi-tui --session forked-session-1');
  });

  it('forks the whole branch up to the leaf', async () => {
    const { tui, tree, shows } = await startFixture();
    await tui.type('/fork\r');
    await shows(WHOLE_BRANCH_ROW);
    await tui.type('\r');
    await shows('Forked into session forked-session-1');
    expect(tree.forked).toEqual(['e3']);
  });

  it('offers to open the fork when a session picker can register it, and runs its command', async () => {
    const { tui, context, shows } = await startFixture();
    const adopted: string[] = [];
    context.commands.register({
      id: ADOPT_SESSION_COMMAND,
      description: 'test',
      run: (args) => void adopted.push(args),
    });
    await tui.type('/fork\r');
    await shows(WHOLE_BRANCH_ROW);
    await tui.type('\r');
    await shows('Open the fork?');
    // With a coordinator behind the picker the block does not say there is none.
    expect(tui.screen()).not.toContain('Without a coordinator');
    expect(tui.screen()).toContain('Open it here now; opened, /sessions lists it.');
    await tui.type('y');
    await eventually(() => adopted.length === 1);
    expect(adopted[0]).toMatch(/^forked-session-1 fork of /);
  });
});
