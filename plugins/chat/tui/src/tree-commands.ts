import { MAX_TREE_PAGE, Tree, type ForkResult, type SessionTreeService, type TreeNode } from '@pi/chat';
import type { CodingAgentTuiPluginContext, Context, TuiComponent, TuiTheme } from '@pi/plugin-api';
import { wrapText } from '@pi/terminal';
import { treeFailureText } from './tree-failure-text';
import { forkRows, label, treeRows, type TreeRow } from './tree-rows';

/** The command ids (keybindings name them). */
export const TREE_COMMANDS = {
  open: 'tree.open',
  fork: 'tree.fork',
} as const;

/** The most nodes `/tree` loads; a longer session shows its first ones and says so. */
export const MAX_TREE_NODES = 20_000;
export const WHOLE_BRANCH_ROW = '+ The whole conversation, up to now';

/**
 * `/tree` (browse the session tree, choose a message to continue from there) and `/fork` (a new session from one of
 * the current branch's messages), over the session's Tree service. Every outcome is a notice; nothing is thrown at
 * the host. The tree is read when the command runs: an open select does not change under the cursor.
 */
export function registerTreeCommands(context: CodingAgentTuiPluginContext): void {
  const { ui, editor } = context;
  const dialog = (call: Context) => ({ signal: call.abortSignal });

  const withTree = async (body: (tree: SessionTreeService) => Promise<void>) => {
    try {
      await body(await context.use(Tree));
    } catch (failure) {
      ui.notify(`Session tree: ${treeFailureText(failure)}`, 'error');
    }
  };

  /** Every node (up to MAX_TREE_NODES) and the leaf, page by page. */
  async function load(tree: SessionTreeService, call: Context): Promise<{ nodes: TreeNode[]; leafId: string | null }> {
    const nodes: TreeNode[] = [];
    let leafId: string | null = null;
    for (let total = Infinity; nodes.length < Math.min(total, MAX_TREE_NODES);) {
      const page = await tree.list({ offset: nodes.length, limit: MAX_TREE_PAGE }, call);
      if (page.nodes.length === 0) break;
      nodes.push(...page.nodes);
      ({ total, leafId } = page);
      if (nodes.length >= MAX_TREE_NODES && total > nodes.length)
        ui.notify(`The session has ${total} entries: showing the first ${nodes.length}`, 'warning');
    }
    return { nodes, leafId };
  }

  async function goTo(tree: SessionTreeService, row: TreeRow, call: Context) {
    const { target, node } = row;
    if (target.kind === 'none') return ui.notify(`Cannot go to "${label(node)}": ${target.reason.toLowerCase()}`);
    // The message to send again, read whole before the move (the row holds one cut line of it).
    const resend = target.kind === 'before' ? await tree.entry({ entryId: node.id }, call) : null;
    const moved = await tree.navigate({ entryId: target.entryId }, call);
    if (resend?.entry?.kind === 'user') {
      if (editor.text() === '') {
        editor.setText(resend.entry.text);
        return ui.notify('Back before your message: it is in the editor to edit and send again');
      }
      return ui.notify('Back before your message (your draft stays in the editor)');
    }
    ui.notify(
      moved.moved ? `Moved to "${label(node)}": the next prompt continues from there` : 'You are there already',
    );
  }

  context.commands.register({
    id: TREE_COMMANDS.open,
    slash: 'tree',
    description: 'Browse the session tree (● the current branch); choose a message to continue from there',
    needsSession: true,
    run: (_args, call) =>
      withTree(async (tree) => {
        const rows = treeRows((await load(tree, call)).nodes);
        if (rows.length === 0) return ui.notify('The session has no messages yet');
        const branches = rows.filter((row) => row.text.includes('└─')).length;
        const title = `Session tree · ${rows.length} messages${branches > 0 ? ` · ${branches + 1} branches` : ''}`;
        const choice = await ui.select(
          title,
          rows.map((row) => row.text),
          dialog(call),
        );
        const chosen = rows.find((row) => row.text === choice);
        if (chosen !== undefined) await goTo(tree, chosen, call);
      }),
  });

  context.commands.register({
    id: TREE_COMMANDS.fork,
    slash: 'fork',
    description: 'Fork a new session from a message of this branch (its history before that message)',
    needsSession: true,
    run: (_args, call) =>
      withTree(async (tree) => {
        const { nodes, leafId } = await load(tree, call);
        const rows = forkRows(nodes);
        const choice = await ui.select(
          'Fork a new session: its history is this branch before the message you choose',
          [WHOLE_BRANCH_ROW, ...rows.map((row) => row.text)],
          dialog(call),
        );
        if (choice === undefined) return;
        const chosen = rows.find((row) => row.text === choice);
        const entryId = chosen === undefined ? leafId : chosen.target.kind === 'before' ? chosen.target.entryId : null;
        const forked = await tree.fork({ entryId }, call);
        // With a session picker (a coordinator behind it), the fork can be registered and opened right away.
        const adopt = context.commands.list().find((command) => command.id === ADOPT_SESSION_COMMAND);
        // Kept in the transcript, not only as a passing notice: the id is what the user needs to open the fork.
        context.transcript.upsert(`tree:fork:${forked.sessionId}`, forkedBlock(forked, ui.theme, adopt !== undefined));
        ui.notify(`Forked into session ${forked.sessionId}`);
        if (adopt === undefined) return;
        if (await ui.confirm('Open the fork?', `Switch this terminal to session ${forked.sessionId}?`, dialog(call))) {
          await context.commands.run(ADOPT_SESSION_COMMAND, `${forked.sessionId} fork of ${sessionTitle(chosen)}`);
        }
      }),
  });
}

/** The session picker's command that registers a session file with the coordinator and switches to it. */
export const ADOPT_SESSION_COMMAND = 'sessions.adopt';

function sessionTitle(chosen: TreeRow | undefined): string {
  const text = chosen?.text.replace(/^\W+/, '').trim() ?? '';
  return text === '' ? 'the whole branch' : `“${text.slice(0, 40)}”`;
}

/**
 * What a fork made and how to open it. A fork is a session file: with a coordinator (the session picker is there) it
 * can be opened from here at once, and is then listed; without one nothing runs it until it is started by hand.
 */
function forkedBlock(forked: ForkResult, theme: TuiTheme, withCoordinator: boolean): TuiComponent {
  const { sessionId, entries } = forked;
  const lines = withCoordinator
    ? [
        `Forked into session ${sessionId} (${entries} entries of this branch).`,
        theme.fg(
          'muted',
          'Open it here now; opened, /sessions lists it. Later, `pi-session --session ' + sessionId + '` starts it.',
        ),
      ]
    : [
        `Forked into session ${sessionId} (${entries} entries of this branch).`,
        theme.fg('muted', 'Without a coordinator it is not running. Start it from this project with'),
        `  pi-session --session ${sessionId}`,
        theme.fg('muted', 'and attach a terminal with'),
        `  pi-tui --session ${sessionId}`,
      ];
  return { render: (width) => ['', ...wrapText(lines.join('\n'), width)] };
}
