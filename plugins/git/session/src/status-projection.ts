import {
  MAX_GIT_ERROR_LENGTH,
  MAX_REF_NAME_LENGTH,
  SHORT_COMMIT_LENGTH,
  UNCHECKED_GIT_STATUS,
  type GitEvent,
  type GitStatus,
} from '@pi/git';
import { jsonEquals } from '@pi/remote';
import type { RepositoryReading } from './read-repository';

/**
 * The status a reading leads to. Outside a repository and without git everything is reset; a failed check
 * keeps the last good fields and says why; a good one replaces everything and clears the error.
 */
export function nextGitStatus(
  previous: GitStatus,
  reading: Exclude<RepositoryReading, { kind: 'aborted' }>,
): GitStatus {
  switch (reading.kind) {
    case 'not_a_repository':
      return { ...UNCHECKED_GIT_STATUS, checked: true };
    case 'git_missing':
      return { ...UNCHECKED_GIT_STATUS, checked: true, gitAvailable: false };
    case 'failed':
      return {
        ...previous,
        checked: true,
        gitAvailable: true,
        error: clip(printable(reading.error), MAX_GIT_ERROR_LENGTH),
      };
    case 'status': {
      const { status } = reading;
      const { staged, unstaged, untracked, conflicted } = status.changes;
      return {
        checked: true,
        inRepository: true,
        gitAvailable: true,
        branch: status.head === null ? null : clip(status.head, MAX_REF_NAME_LENGTH),
        commit: status.oid === null ? null : status.oid.slice(0, SHORT_COMMIT_LENGTH),
        detached: status.head === null,
        upstream: status.upstream === null ? null : clip(status.upstream, MAX_REF_NAME_LENGTH),
        ahead: status.aheadBehind?.ahead ?? 0,
        behind: status.aheadBehind?.behind ?? 0,
        changes: { staged, unstaged, untracked, conflicted },
        clean: staged + unstaged + untracked + conflicted === 0,
        error: null,
      };
    }
  }
}

/** The events a change from `previous` to `next` causes (none when nothing changed), in emission order. */
export function changeEvents(previous: GitStatus, next: GitStatus): GitEvent[] {
  if (jsonEquals(previous, next)) return [];
  const events: GitEvent[] = [{ type: 'status_changed' }];
  const headMoved =
    previous.branch !== next.branch || previous.commit !== next.commit || previous.detached !== next.detached;
  if (headMoved) {
    events.push({ type: 'head_changed', branch: next.branch, commit: next.commit, detached: next.detached });
  }
  return events;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Control characters (git may quote what it was given) become spaces, so the text is safe to display. */
function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
}
