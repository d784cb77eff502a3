import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { modelProviderFacet } from '@pi/host-session/testing';
import { createOfflineProvider } from '@pi/model-providers';
import {
  z,
  type AgentLanePluginView,
  type AgentPluginScope,
  type AnyAgentTool,
  type SessionFacet,
} from '@pi/plugin-api';
import { TRANSPORTS } from '@pi/test-support';
import { git } from '../src/testing/git-repository';
import { startGitHost, type GitHost } from './git-host';

/** A stand-in for @pi/tools-core's `edit`: exact replacement of one text in one file of the working directory. */
function standInEdit(cwd: string): AnyAgentTool {
  return {
    name: 'edit',
    label: 'Edit',
    description: 'Replaces oldText with newText in a file',
    executionMode: 'sequential',
    parameters: z.object({ path: z.string(), oldText: z.string(), newText: z.string() }),
    async execute(args: { path: string; oldText: string; newText: string }) {
      const file = join(cwd, args.path);
      await writeFile(file, (await readFile(file, 'utf8')).replace(args.oldText, args.newText));
      return { content: [{ type: 'text', text: `Edited ${args.path}` }], details: { path: args.path } };
    },
  };
}

/** Prompts the main lane and waits for the run to settle; a prompt starting with `/tool` runs that tool. */
async function promptAndSettle(lane: AgentLanePluginView | undefined, text: string): Promise<void> {
  const accepted = await lane?.prompt([{ role: 'user', content: [{ type: 'text', text }] }], BACKGROUND_CONTEXT);
  if (accepted === undefined || accepted.isErr()) throw new Error('the prompt was not accepted');
  expect((await lane?.settled(accepted.value.operationId))?.outcome).toBe('completed');
}

/**
 * A session with the offline model and the stand-in edit tool, and git's checks counted. Nothing is watched and
 * the poll is a minute away unless `watched`, and requests are not debounced: a check asked for is started by the
 * next timer, so one timer after a run settles every check the run asked for has started.
 */
async function sessionWithTools(transport: (typeof TRANSPORTS)[number], watched = false) {
  let agent: AgentPluginScope | undefined;
  const tools: SessionFacet = (context) => {
    context.tools.add((draft) => draft.set('edit', standInEdit(context.paths.cwd)));
    agent = context.agent;
  };
  let checks = 0;
  const host: GitHost = await startGitHost({
    transport,
    options: {
      ...(watched ? {} : { watchStrategy: 'poll' as const, pollIntervalMs: 60_000 }),
      debounceMs: 0,
      maxDelayMs: 0,
      onCheck: () => void (checks += 1),
    },
    after: [
      { id: '@test/model', facet: modelProviderFacet(createOfflineProvider()) },
      { id: '@test/tools', facet: tools },
    ],
  });
  await host.watching(watched ? 'directories' : 'polling');
  const client = await host.client();
  await client.until((status) => status.checked && status.clean);
  return {
    host,
    client,
    agent: () => {
      if (agent === undefined) throw new Error('the tools facet did not run');
      return agent;
    },
    /** Checks started so far, once the timers already set (a request's) have fired. */
    checks: async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      return checks;
    },
  };
}

const EDIT_README = `/tool edit ${JSON.stringify({ path: 'README.md', oldText: '# test', newText: '# edited by a tool' })}`;

describe.each(TRANSPORTS)('git status after tool runs, over %s', (transport) => {
  it('an edit made by a tool the harness runs turns the status dirty, and the client sees status_changed', async () => {
    let lane: AgentLanePluginView | undefined;
    const tools: SessionFacet = (context) => {
      context.tools.add((draft) => draft.set('edit', standInEdit(context.paths.cwd)));
      lane = context.agent.main;
    };
    // Polling once a minute and no watching: only the harness's tool events can lead to a check in time.
    const host = await startGitHost({
      transport,
      options: { watchStrategy: 'poll', pollIntervalMs: 60_000 },
      after: [
        { id: '@test/model', facet: modelProviderFacet(createOfflineProvider()) },
        { id: '@test/tools', facet: tools },
      ],
    });
    await host.watching('polling');
    const client = await host.client();
    await client.until((status) => status.checked && status.clean);

    const call = JSON.stringify({ path: 'README.md', oldText: '# test', newText: '# edited by a tool' });
    const accepted = await lane?.prompt(
      [{ role: 'user', content: [{ type: 'text', text: `/tool edit ${call}` }] }],
      BACKGROUND_CONTEXT,
    );
    if (accepted === undefined || accepted.isErr()) throw new Error('the prompt was not accepted');
    expect((await lane?.settled(accepted.value.operationId))?.outcome).toBe('completed');

    const dirty = await client.until((status) => !status.clean);
    expect(dirty.changes).toEqual({ staged: 0, unstaged: 1, untracked: 0, conflicted: 0 });
    expect(client.events).toContainEqual({ type: 'status_changed' });
    expect(await readFile(join(host.project, 'README.md'), 'utf8')).toBe('# edited by a tool\n');
  });

  it('a run that only answered starts no git check, and a run with a tool does', async () => {
    const session = await sessionWithTools(transport);
    const lane = session.agent().main;
    const before = await session.checks();

    await promptAndSettle(lane, 'hello');
    expect(await session.checks()).toBe(before);

    await promptAndSettle(lane, EDIT_README);
    await session.client.until((status) => !status.clean);
    expect(await session.checks()).toBeGreaterThan(before);
  });

  it('a file a `!!` command wrote shows as dirty once its record is written, with nothing watched', async () => {
    const session = await sessionWithTools(transport);
    // What @pi/chat's shell runner does for `!!touch made-by-a-command.txt`: run the command, then record it.
    await writeFile(join(session.host.project, 'made-by-a-command.txt'), '');
    await session.agent().appendCustom({ type: 'shell', command: 'touch made-by-a-command.txt' }, BACKGROUND_CONTEXT);
    const dirty = await session.client.until((status) => !status.clean);
    expect(dirty.changes).toEqual({ staged: 0, unstaged: 0, untracked: 1, conflicted: 0 });
  });

  it('a branch switched in another terminal after a run that only answered still shows', async () => {
    const session = await sessionWithTools(transport, true);
    await promptAndSettle(session.agent().main, 'hello');
    await git(session.host.project, 'switch', '--quiet', '--create', 'elsewhere');
    const switched = await session.client.until((status) => status.branch === 'elsewhere');
    expect(switched).toMatchObject({ detached: false, clean: true });
    expect(session.client.events).toContainEqual(
      expect.objectContaining({ type: 'head_changed', branch: 'elsewhere' }),
    );
  });
});
