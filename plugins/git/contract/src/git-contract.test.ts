import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Context } from '@pi/context';
import { RemoteError, checkCallArguments, type RemoteEvents, type RemoteState } from '@pi/remote';
import {
  GIT_PLUGIN_ID,
  Git,
  MAX_GIT_ERROR_LENGTH,
  MAX_REF_NAME_LENGTH,
  UNCHECKED_GIT_STATUS,
  gitEventSchema,
  gitStatusSchema,
  type GitEvent,
  type GitService,
  type GitStatus,
} from './index';

const dirty: GitStatus = {
  ...UNCHECKED_GIT_STATUS,
  checked: true,
  inRepository: true,
  branch: 'main',
  commit: 'a1b2c3d',
  upstream: 'origin/main',
  ahead: 1,
  changes: { staged: 0, unstaged: 2, untracked: 1, conflicted: 0 },
  clean: false,
};

describe('the git contract', () => {
  it('is the plugin @pi/git, whose package metadata names its session facet and its TUI facet', () => {
    const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(packageJson.name).toBe(GIT_PLUGIN_ID);
    expect(packageJson.pi).toEqual({
      apiVersion: '2.0',
      description: expect.any(String),
      facets: { session: '@pi/git-session', tui: '@pi/git-tui' },
    });
  });

  it('exposes the spec example: the status state, the events stream and refresh', () => {
    expect(Git.id).toBe('git');
    expect(Object.keys(Git.exposure.methods)).toEqual(['refresh']);
    expect(Object.keys(Git.exposure.state)).toEqual(['status']);
    expect(Object.keys(Git.exposure.events)).toEqual(['events']);
  });

  it('types the service as the spec does, with the Context last', () => {
    expectTypeOf<GitService['status']>().toEqualTypeOf<RemoteState<GitStatus>>();
    expectTypeOf<GitService['events']>().toEqualTypeOf<RemoteEvents<GitEvent>>();
    expectTypeOf<GitService['refresh']>().toEqualTypeOf<(context: Context) => Promise<void>>();
    expectTypeOf<GitEvent['type']>().toEqualTypeOf<'status_changed' | 'head_changed'>();
  });

  it('accepts the unchecked status, a dirty one and a detached one', () => {
    expect(gitStatusSchema.safeParse(UNCHECKED_GIT_STATUS).success).toBe(true);
    expect(gitStatusSchema.safeParse(dirty).success).toBe(true);
    expect(gitStatusSchema.safeParse({ ...dirty, branch: null, detached: true }).success).toBe(true);
  });

  it('bounds names and errors, and refuses negative counts and a commit that is not hex', () => {
    const refused: Partial<GitStatus>[] = [
      { branch: 'b'.repeat(MAX_REF_NAME_LENGTH + 1) },
      { upstream: 'u'.repeat(MAX_REF_NAME_LENGTH + 1) },
      { error: 'e'.repeat(MAX_GIT_ERROR_LENGTH + 1) },
      { ahead: -1 },
      { changes: { staged: 0.5, unstaged: 0, untracked: 0, conflicted: 0 } },
      { commit: 'HEAD~1' },
      { branch: '' },
    ];
    for (const change of refused) expect(gitStatusSchema.safeParse({ ...dirty, ...change }).success).toBe(false);
    expect(gitStatusSchema.safeParse({ ...dirty, branch: 'b'.repeat(MAX_REF_NAME_LENGTH) }).success).toBe(true);
  });

  it('knows exactly the two event types', () => {
    expect(gitEventSchema.safeParse({ type: 'status_changed' }).success).toBe(true);
    expect(
      gitEventSchema.safeParse({ type: 'head_changed', branch: 'main', commit: 'a1b2c3d', detached: false }).success,
    ).toBe(true);
    expect(gitEventSchema.safeParse({ type: 'head_changed' }).success).toBe(false);
    expect(gitEventSchema.safeParse({ type: 'pushed' }).success).toBe(false);
  });

  it('refresh takes no argument besides the context', () => {
    expect(checkCallArguments(Git.exposure, 'refresh', [])).toEqual([]);
    expect(() => checkCallArguments(Git.exposure, 'refresh', ['now'])).toThrow(RemoteError);
  });
});
