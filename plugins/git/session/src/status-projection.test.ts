import { describe, expect, it } from 'vitest';
import {
  MAX_GIT_ERROR_LENGTH,
  MAX_REF_NAME_LENGTH,
  UNCHECKED_GIT_STATUS,
  gitStatusSchema,
  type GitStatus,
} from '@pi/git';
import type { PorcelainStatus } from './porcelain-v2';
import { changeEvents, nextGitStatus } from './status-projection';

const location = { topLevel: '/repo', gitDir: '/repo/.git', commonDir: '/repo/.git' };
const OID = '0123456789abcdef0123456789abcdef01234567';
const porcelain: PorcelainStatus = {
  oid: OID,
  head: 'main',
  upstream: 'origin/main',
  aheadBehind: { ahead: 1, behind: 2 },
  changes: { staged: 0, unstaged: 1, untracked: 0, conflicted: 0 },
};
const read = (status: Partial<PorcelainStatus> = {}) =>
  nextGitStatus(UNCHECKED_GIT_STATUS, { kind: 'status', location, status: { ...porcelain, ...status } });

describe('the status a check leads to', () => {
  it('carries the branch, the short commit, the upstream counts and dirtiness', () => {
    expect(read()).toEqual({
      checked: true,
      inRepository: true,
      gitAvailable: true,
      branch: 'main',
      commit: '0123456',
      detached: false,
      upstream: 'origin/main',
      ahead: 1,
      behind: 2,
      changes: { staged: 0, unstaged: 1, untracked: 0, conflicted: 0 },
      clean: false,
      error: null,
    });
    expect(read({ changes: { staged: 0, unstaged: 0, untracked: 0, conflicted: 0 } }).clean).toBe(true);
  });

  it('shows a detached HEAD by its commit, and a branch without commits by its name alone', () => {
    expect(read({ head: null })).toMatchObject({ branch: null, detached: true, commit: '0123456' });
    expect(read({ oid: null })).toMatchObject({ branch: 'main', detached: false, commit: null });
  });

  it('cuts names longer than the contract allows, so the state always passes its schema', () => {
    const status = read({ head: 'b'.repeat(5000), upstream: 'u'.repeat(5000) });
    expect(status.branch).toHaveLength(MAX_REF_NAME_LENGTH);
    expect(status.branch?.endsWith('…')).toBe(true);
    expect(gitStatusSchema.safeParse(status).success).toBe(true);
  });

  it('says so outside a repository and without git, forgetting what was known', () => {
    expect(nextGitStatus(read(), { kind: 'not_a_repository' })).toEqual({ ...UNCHECKED_GIT_STATUS, checked: true });
    expect(nextGitStatus(read(), { kind: 'git_missing' })).toEqual({
      ...UNCHECKED_GIT_STATUS,
      checked: true,
      gitAvailable: false,
    });
  });

  it('keeps the last good fields when git fails, with its complaint made printable and bounded', () => {
    const failed = nextGitStatus(read(), {
      kind: 'failed',
      error: `fatal: bad\u001b[31m index${'!'.repeat(2000)}`,
      location,
    });
    expect(failed).toMatchObject({ branch: 'main', inRepository: true, clean: false });
    expect(failed.error).toMatch(/^fatal: bad \[31m index!+…$/);
    expect(failed.error).toHaveLength(MAX_GIT_ERROR_LENGTH);
    expect(read().error).toBeNull();
  });
});

describe('the events a change causes', () => {
  const clean: GitStatus = read({ changes: { staged: 0, unstaged: 0, untracked: 0, conflicted: 0 } });

  it('none when nothing changed', () => {
    expect(changeEvents(clean, { ...clean })).toEqual([]);
  });

  it('status_changed alone when only the files changed', () => {
    expect(changeEvents(clean, read())).toEqual([{ type: 'status_changed' }]);
  });

  it('head_changed after status_changed when the commit or branch moved', () => {
    const committed = { ...clean, commit: 'fedcba9' };
    expect(changeEvents(read(), committed)).toEqual([
      { type: 'status_changed' },
      { type: 'head_changed', branch: 'main', commit: 'fedcba9', detached: false },
    ]);
    expect(changeEvents(clean, { ...clean, branch: null, detached: true })).toContainEqual({
      type: 'head_changed',
      branch: null,
      commit: '0123456',
      detached: true,
    });
  });
});
