import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { modelProviderFacet } from '@pi/host-session/testing';
import { createOfflineProvider } from '@pi/model-providers';
import { z, type AgentLanePluginView, type AnyAgentTool, type SessionFacet } from '@pi/plugin-api';
import { TRANSPORTS } from '@pi/test-support';
import { startGitHost } from './git-host';

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
});
