import type { Context } from '@pi/plugin-api';
import { UNCHECKED_GIT_STATUS, type GitEvent, type GitService, type GitStatus } from '@pi/git';
import { createRemoteEvents, createRemoteState, type AuthoritativeEvents, type AuthoritativeState } from '@pi/remote';

/** A stand-in for the session's Git (the real one is @pi/git-session, which a TUI may not import). */
export interface StandInGit extends GitService {
  readonly status: AuthoritativeState<GitStatus>;
  readonly events: AuthoritativeEvents<GitEvent>;
  /** Replaces the status as the session would after a check. */
  show(status: Partial<GitStatus>, context: Context): void;
  readonly refreshes: number;
}

/** A checked repository on `main`, clean, one commit. */
export const CLEAN_MAIN: GitStatus = {
  ...UNCHECKED_GIT_STATUS,
  checked: true,
  inRepository: true,
  branch: 'main',
  commit: 'a1b2c3d',
};

export function standInGit(initial: GitStatus = CLEAN_MAIN): StandInGit {
  const status = createRemoteState<GitStatus>(initial);
  const events = createRemoteEvents<GitEvent>();
  let refreshes = 0;
  return {
    status,
    events,
    show(change, context) {
      status.set({ ...status.value, ...change }, context);
      events.emit({ type: 'status_changed' }, context);
    },
    async refresh() {
      refreshes += 1;
    },
    get refreshes() {
      return refreshes;
    },
  };
}
