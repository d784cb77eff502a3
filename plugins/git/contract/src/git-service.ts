import { z } from 'zod';
import type { Context } from '@pi/context';
import { defineRemoteService, type RemoteEvents, type RemoteState } from '@pi/remote';

/** How many files of each kind `git status` reports (an untracked directory counts once, as git shows it). */
export type GitChanges = {
  /** Changed in the index (to be committed). */
  staged: number;
  /** Changed in the working tree and not staged. */
  unstaged: number;
  untracked: number;
  /** Unmerged paths of a merge, rebase or cherry-pick in progress. */
  conflicted: number;
};

/**
 * The git status of the session's working tree, as a type alias so it is assignable to JSON types. One value
 * answers every question a presentation asks; fields that do not apply are null or 0, never missing.
 */
export type GitStatus = {
  /** False until the session's first check has finished; every other field then holds its empty default. */
  checked: boolean;
  /** Whether the session's directory is inside a git working tree. Outside one nothing else is known. */
  inRepository: boolean;
  /** False when no git executable was found on the session's PATH (`inRepository` is then false too). */
  gitAvailable: boolean;
  /** The checked-out branch; null when HEAD is detached or outside a repository. */
  branch: string | null;
  /** HEAD's commit, its first SHORT_COMMIT_LENGTH hex digits; null on a branch without commits yet. */
  commit: string | null;
  /** True when HEAD is not on a branch: show `commit` instead of `branch`. */
  detached: boolean;
  /** The branch's upstream (`origin/main`), or null when it has none. */
  upstream: string | null;
  /** Commits on the branch not on its upstream, and the other way round; 0 without an upstream. */
  ahead: number;
  behind: number;
  changes: GitChanges;
  /** No staged, unstaged, untracked or conflicted file. */
  clean: boolean;
  /**
   * Why the last check failed (git's own first line of complaint, bounded), or null when it worked. A failed
   * check keeps the fields of the last good one.
   */
  error: string | null;
};

/**
 * The change stream. `status_changed` follows every change of the `status` cell (which is set first, so a
 * listener reading the state sees the new value); `head_changed` follows it when the branch or the commit
 * HEAD points at moved (a commit, a checkout, a reset), naming the new head.
 */
export type GitEvent =
  | { type: 'status_changed' }
  | { type: 'head_changed'; branch: string | null; commit: string | null; detached: boolean };

/**
 * The session's view of its repository (the spec's Events example): replicated status, change events, and a
 * way to ask for a check now. The session keeps the status current by itself (file changes, tool runs).
 */
export interface GitService {
  readonly status: RemoteState<GitStatus>;
  readonly events: RemoteEvents<GitEvent>;
  /**
   * Checks now and resolves once `status` shows the result. A check already running is followed by a new
   * one, so every change made before the call is seen. Aborting the context cancels only this wait.
   */
  refresh(context: Context): Promise<void>;
}

/** How many hex digits of HEAD's commit the status carries (git's own default abbreviation). */
export const SHORT_COMMIT_LENGTH = 7;
/** The longest branch or upstream name the status carries; the session cuts longer ones, ending them with `…`. */
export const MAX_REF_NAME_LENGTH = 1024;
/** The longest `error` the status carries; the session cuts longer ones. */
export const MAX_GIT_ERROR_LENGTH = 512;

const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const refName = z.string().min(1).max(MAX_REF_NAME_LENGTH);
const commit = z.string().regex(/^[0-9a-f]{7,64}$/);

export const gitChangesSchema: z.ZodType<GitChanges> = z.object({
  staged: count,
  unstaged: count,
  untracked: count,
  conflicted: count,
});

export const gitStatusSchema: z.ZodType<GitStatus> = z.object({
  checked: z.boolean(),
  inRepository: z.boolean(),
  gitAvailable: z.boolean(),
  branch: refName.nullable(),
  commit: commit.nullable(),
  detached: z.boolean(),
  upstream: refName.nullable(),
  ahead: count,
  behind: count,
  changes: gitChangesSchema,
  clean: z.boolean(),
  error: z.string().min(1).max(MAX_GIT_ERROR_LENGTH).nullable(),
});

export const gitEventSchema: z.ZodType<GitEvent> = z.discriminatedUnion('type', [
  z.object({ type: z.literal('status_changed') }),
  z.object({
    type: z.literal('head_changed'),
    branch: refName.nullable(),
    commit: commit.nullable(),
    detached: z.boolean(),
  }),
]);

export const Git = defineRemoteService<GitService>('git', {
  methods: {
    refresh: { args: [], result: z.void() },
  },
  state: { status: gitStatusSchema },
  events: { events: gitEventSchema },
});

/** The status before the first check: nothing known yet. */
export const UNCHECKED_GIT_STATUS: GitStatus = Object.freeze({
  checked: false,
  inRepository: false,
  gitAvailable: true,
  branch: null,
  commit: null,
  detached: false,
  upstream: null,
  ahead: 0,
  behind: 0,
  changes: Object.freeze({ staged: 0, unstaged: 0, untracked: 0, conflicted: 0 }),
  clean: true,
  error: null,
});
