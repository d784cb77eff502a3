import { isAbsolute, resolve } from 'node:path';
import { runGit, type GitCommandFailure, type GitCommandSettings } from './git-command';
import { PorcelainV2Parser, type PorcelainStatus } from './porcelain-v2';

/** Where the repository of the session's directory is: its working tree and git directories, absolute. */
export interface RepositoryLocation {
  readonly topLevel: string;
  /** This working tree's git directory (HEAD, index). */
  readonly gitDir: string;
  /** The directory shared by all working trees (refs, packed-refs, config); the same as gitDir without worktrees. */
  readonly commonDir: string;
}

/** One look at the repository. `failed` keeps the location when only `git status` failed. */
export type RepositoryReading =
  | { readonly kind: 'status'; readonly location: RepositoryLocation; readonly status: PorcelainStatus }
  | { readonly kind: 'not_a_repository' }
  | { readonly kind: 'git_missing' }
  | { readonly kind: 'failed'; readonly error: string; readonly location: RepositoryLocation | null }
  | { readonly kind: 'aborted' };

const LOCATE = ['rev-parse', '--show-toplevel', '--absolute-git-dir', '--git-common-dir'];
/** Untracked files as git shows them by default (a new directory is one entry): cheap on large trees. */
const STATUS = ['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=normal', '--ignored=no'];

/** Finds the repository of `settings.cwd`, then reads its status: two git commands. */
export async function readRepository(settings: GitCommandSettings, signal?: AbortSignal): Promise<RepositoryReading> {
  const lines: string[] = [];
  const located = await runGit(
    settings,
    LOCATE,
    {
      separator: 'newline',
      onRecord: (line) => (lines.push(line) > 3 ? 'rev-parse printed more than three lines' : undefined),
    },
    signal,
  );
  if (located.isErr()) return fromLocateFailure(located.error);
  const [topLevel, gitDir, commonDir] = lines;
  if (lines.length !== 3 || !topLevel || !gitDir || !commonDir || !isAbsolute(topLevel) || !isAbsolute(gitDir)) {
    return { kind: 'failed', error: 'git rev-parse printed something pi cannot read', location: null };
  }
  const location = { topLevel, gitDir, commonDir: resolve(settings.cwd, commonDir) };

  const parser = new PorcelainV2Parser();
  const read = await runGit(settings, STATUS, { separator: 'nul', onRecord: parser.accept }, signal);
  if (read.isErr()) {
    const failure = read.error;
    if (failure.code === 'aborted') return { kind: 'aborted' };
    if (failure.code === 'git_missing') return { kind: 'git_missing' };
    return { kind: 'failed', error: failureText(failure), location };
  }
  const status = parser.result();
  if (status.isErr())
    return { kind: 'failed', error: `git status printed output pi cannot read: ${status.error}`, location };
  return { kind: 'status', location, status: status.value };
}

function fromLocateFailure(failure: GitCommandFailure): RepositoryReading {
  switch (failure.code) {
    case 'aborted':
      return { kind: 'aborted' };
    case 'git_missing':
      return { kind: 'git_missing' };
    case 'no_directory':
      return { kind: 'not_a_repository' };
    case 'exited':
      // Messages are untranslated (LC_ALL=C). Inside a `.git` directory or a bare repository there is no
      // working tree to report on either.
      if (/not a git repository|must be run in a work tree/.test(failure.stderr)) return { kind: 'not_a_repository' };
      return { kind: 'failed', error: failureText(failure), location: null };
    case 'timed_out':
    case 'invalid_output':
    case 'spawn_failed':
      return { kind: 'failed', error: failureText(failure), location: null };
  }
}

/** git's own first line of complaint when it has one (`fatal: …`), else what went wrong running it. */
function failureText(failure: GitCommandFailure): string {
  const line = failure.stderr
    .split('\n')
    .map((text) => text.trim())
    .find((text) => text !== '');
  return line ?? failure.message;
}
