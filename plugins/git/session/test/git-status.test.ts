import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { SHORT_COMMIT_LENGTH } from '@pi/git';
import { TRANSPORTS } from '@pi/test-support';
import { commitEverything, git, writeProjectFile } from '../src/testing/git-repository';
import { startGitHost } from './git-host';

describe.each(TRANSPORTS)('git status over %s', (transport) => {
  it('reports the branch, its commit and a clean tree of a fresh repository', async () => {
    const host = await startGitHost({ transport });
    const { until } = await host.client();
    const status = await until((value) => value.checked);
    const head = (await git(host.project, 'rev-parse', 'HEAD')).trim();
    expect(status).toEqual({
      checked: true,
      inRepository: true,
      gitAvailable: true,
      branch: 'main',
      commit: head.slice(0, SHORT_COMMIT_LENGTH),
      detached: false,
      upstream: null,
      ahead: 0,
      behind: 0,
      changes: { staged: 0, unstaged: 0, untracked: 0, conflicted: 0 },
      clean: true,
      error: null,
    });
  });

  it('editing a file on disk turns the status dirty, and a connected client sees status_changed', async () => {
    const host = await startGitHost({ transport });
    await host.watching('directories');
    const client = await host.client();
    await client.until((status) => status.clean);

    await writeFile(join(host.project, 'README.md'), '# changed outside pi\n');
    await writeProjectFile(host.project, 'src/new.ts', 'export {};\n');

    const dirty = await client.until((status) => status.changes.unstaged === 1 && status.changes.untracked === 1);
    expect(dirty.clean).toBe(false);
    expect(client.events).toContainEqual({ type: 'status_changed' });
    expect(client.events.some((event) => event.type === 'head_changed')).toBe(false);
  });

  it('a commit made outside pi is picked up: clean again, with head_changed naming the new commit', async () => {
    const host = await startGitHost({ transport });
    await host.watching('directories');
    const client = await host.client();
    await writeFile(join(host.project, 'README.md'), '# to be committed\n');
    await client.until((status) => !status.clean);

    await commitEverything(host.project, 'second');
    const head = (await git(host.project, 'rev-parse', 'HEAD')).trim().slice(0, SHORT_COMMIT_LENGTH);

    await client.until((status) => status.clean && status.commit === head);
    expect(client.events).toContainEqual({ type: 'head_changed', branch: 'main', commit: head, detached: false });
  });

  it('a checkout to a detached HEAD shows the commit instead of a branch', async () => {
    const host = await startGitHost({ transport });
    await host.watching('directories');
    const client = await host.client();
    await git(host.project, 'checkout', '--quiet', '--detach');
    const status = await client.until((value) => value.detached);
    expect(status).toMatchObject({ branch: null, detached: true, clean: true });
    expect(status.commit).toMatch(/^[0-9a-f]{7}$/);
    expect(client.events).toContainEqual({ type: 'head_changed', branch: null, commit: status.commit, detached: true });
  });

  it('counts commits ahead of and behind the upstream', async () => {
    const host = await startGitHost({ transport });
    const remote = join(host.fixture.directory, 'remote.git');
    await git(host.fixture.directory, 'init', '--quiet', '--bare', remote);
    await git(host.project, 'remote', 'add', 'origin', remote);
    await git(host.project, 'push', '--quiet', '--set-upstream', 'origin', 'main');
    await writeProjectFile(host.project, 'ahead.txt', 'one\n');
    await commitEverything(host.project, 'ahead');
    const client = await host.client();
    await client.git.refresh(BACKGROUND_CONTEXT);
    expect(client.git.status.value).toMatchObject({ upstream: 'origin/main', ahead: 1, behind: 0, clean: true });
  });

  it('refresh resolves once the caller’s replica shows what changed before the call', async () => {
    const host = await startGitHost({ transport, options: { watchStrategy: 'poll', pollIntervalMs: 60_000 } });
    const client = await host.client();
    await client.until((status) => status.checked);
    await writeProjectFile(host.project, 'unseen.txt', 'polling is too slow to see this\n');
    await client.git.refresh(BACKGROUND_CONTEXT);
    expect(client.git.status.value.changes.untracked).toBe(1);
  });

  it('outside a repository says inRepository: false, refresh works, and a later git init is noticed', async () => {
    const host = await startGitHost({ transport, repository: false });
    const client = await host.client();
    const outside = await client.until((status) => status.checked);
    expect(outside).toMatchObject({ inRepository: false, gitAvailable: true, branch: null, error: null });
    await client.git.refresh(BACKGROUND_CONTEXT);
    expect(client.git.status.value.inRepository).toBe(false);

    await git(host.project, 'init', '--quiet', '--initial-branch=trunk');
    const inside = await client.until((status) => status.inRepository);
    expect(inside).toMatchObject({ branch: 'trunk', commit: null, clean: true });
  });

  it('without git on PATH the status says git is not available, and nothing fails', async () => {
    const host = await startGitHost({ transport, options: { env: { PATH: '/nonexistent' } } });
    const client = await host.client();
    const status = await client.until((value) => value.checked);
    expect(status).toMatchObject({ gitAvailable: false, inRepository: false, error: null });
    await client.git.refresh(BACKGROUND_CONTEXT);
    expect(client.git.status.value.gitAvailable).toBe(false);
  });

  it('a failing git is reported as the error, keeping what was known', async () => {
    const host = await startGitHost({ transport });
    const client = await host.client();
    await client.until((status) => status.checked);
    await writeFile(join(host.project, '.git', 'index'), 'not an index');
    await client.git.refresh(BACKGROUND_CONTEXT);
    expect(client.git.status.value).toMatchObject({ inRepository: true, branch: 'main' });
    expect(client.git.status.value.error).toMatch(/^(fatal|error): /);
  });
});
