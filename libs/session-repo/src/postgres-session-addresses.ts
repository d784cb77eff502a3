import { err, type Result } from 'neverthrow';
import type pg from 'pg';
import { SESSION_REPO_ERROR_CODES, sessionRepoError, type SessionRepoError } from './session-repo-error';
import { checkSessionId, checkWorkspaceId } from './validate';

/**
 * Where the sessions running on other hosts serve presentations (their `wss:` URLs), kept in the records the replicas
 * share: the replica a session is connected to writes it and clears it when the connection drops, so any replica's
 * gateway can relay to the session. `replica` names the writing process: a late clear by a replica the session has
 * left does not remove what the next one wrote.
 */
export interface SessionAddresses {
  set(
    address: { sessionId: string; workspaceId: string; url: string },
    replica: string,
  ): Promise<Result<void, SessionRepoError>>;
  clear(sessionId: string, replica: string): Promise<Result<void, SessionRepoError>>;
  /** The URL a session serves at, or undefined when none is known. */
  get(sessionId: string): Promise<Result<string | undefined, SessionRepoError>>;
}

/** Runs one statement in a transaction for one workspace, or as the fleet. */
type Run = <T extends pg.QueryResultRow>(
  operation: string,
  scope: { readonly workspaceId: string } | 'fleet',
  text: string,
  values: unknown[],
) => Promise<Result<T[], SessionRepoError>>;

const MAX_URL_LENGTH = 2048;

export function sessionAddresses(run: Run): SessionAddresses {
  const invalid = (message: string) => err(sessionRepoError(SESSION_REPO_ERROR_CODES.invalid, message));
  return {
    async set({ sessionId, workspaceId, url }, replica) {
      const checked = checkSessionId(sessionId).andThen(() => checkWorkspaceId(workspaceId));
      if (checked.isErr()) return err(checked.error);
      if (!/^wss:\/\/\S+$/.test(url) || url.length > MAX_URL_LENGTH)
        return invalid(`A session address is a wss:// URL: ${JSON.stringify(url.slice(0, 80))}`);
      const done = await run(
        'record where a session serves',
        { workspaceId },
        `INSERT INTO session_addresses (session_id, workspace_id, url, replica, seen_at) VALUES ($1, $2, $3, $4, now())
         ON CONFLICT (session_id) DO UPDATE SET url = $3, replica = $4, seen_at = now()
         WHERE session_addresses.workspace_id = $2`,
        [sessionId, workspaceId, url, replica],
      );
      return done.map(() => undefined);
    },
    async clear(sessionId, replica) {
      const checked = checkSessionId(sessionId);
      if (checked.isErr()) return err(checked.error);
      const done = await run(
        'forget where a session serves',
        'fleet',
        'DELETE FROM session_addresses WHERE session_id = $1 AND replica = $2',
        [sessionId, replica],
      );
      return done.map(() => undefined);
    },
    async get(sessionId) {
      const checked = checkSessionId(sessionId);
      if (checked.isErr()) return err(checked.error);
      const rows = await run<{ url: string }>(
        'read where a session serves',
        'fleet',
        'SELECT url FROM session_addresses WHERE session_id = $1',
        [sessionId],
      );
      return rows.map((found) => found[0]?.url);
    },
  };
}
