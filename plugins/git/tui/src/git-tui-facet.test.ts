import { afterEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/plugin-api';
import { Git } from '@pi/git';
import { startTestTuiHost, type TestTuiHost } from '@pi/host-tui/testing';
import { eventually, startRpcFixture } from '@pi/test-support';
import type { RpcClient } from '@pi/transport-trpc';
import { gitTuiFacet } from './git-tui-facet';
import { CLEAN_MAIN, standInGit, type StandInGit } from './testing/stand-in-git';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Fixture {
  readonly tui: TestTuiHost;
  readonly client: RpcClient;
  readonly git: StandInGit;
  /** Waits until the painted screen contains `text`. */
  shows(text: string): Promise<void>;
}

async function startFixture(git: StandInGit | null = standInGit()): Promise<Fixture> {
  const rpc = await startRpcFixture('loopback', {
    provide: (registry) => void (git === null ? undefined : registry.provide(Git, git)),
  });
  cleanups.push(() => rpc.close());
  const client = await rpc.connect();
  const tui = await startTestTuiHost({ facets: { '@pi/git': gitTuiFacet }, client });
  cleanups.push(() => tui.stop());
  const shows = (text: string) =>
    eventually(() => {
      tui.host.flush();
      return tui.screen().includes(text);
    });
  return { tui, client, git: git ?? standInGit(), shows };
}

describe('the git TUI facet', () => {
  it('shows the branch in the footer as soon as the session answers', async () => {
    const { shows } = await startFixture();
    await shows('⎇ main');
  });

  it('repaints with the dirty mark and the commits ahead when the status changes', async () => {
    const { git, tui, shows } = await startFixture();
    await shows('⎇ main');
    git.show(
      { clean: false, ahead: 1, changes: { staged: 0, unstaged: 1, untracked: 0, conflicted: 0 } },
      BACKGROUND_CONTEXT,
    );
    await shows('⎇ main*  ↑1');
    git.show(
      { clean: true, ahead: 0, changes: { staged: 0, unstaged: 0, untracked: 0, conflicted: 0 } },
      BACKGROUND_CONTEXT,
    );
    await eventually(() => {
      tui.host.flush();
      return !tui.screen().includes('⎇ main*');
    });
    expect(tui.screen()).toContain('⎇ main');
  });

  it('shows nothing outside a repository, and nothing against a session without @pi/git', async () => {
    const outside = await startFixture(standInGit({ ...CLEAN_MAIN, inRepository: false, branch: null, commit: null }));
    await eventually(() => outside.client.activeServices === 1);
    outside.tui.host.flush();
    expect(outside.tui.screen()).not.toContain('⎇');

    const without = await startFixture(null);
    await without.tui.type('x');
    expect(without.tui.screen()).not.toContain('⎇');
    expect(without.tui.host.failures()).toEqual([]);
  });

  it('stopping the TUI releases its subscription to Git', async () => {
    const { tui, client, shows } = await startFixture();
    await shows('⎇ main');
    expect(client.activeServices).toBe(1);
    await tui.stop();
    await eventually(() => client.activeServices === 0);
  });
});
