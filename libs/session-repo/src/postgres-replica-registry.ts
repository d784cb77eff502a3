import { err, type Result } from 'neverthrow';
import type pg from 'pg';
import { SESSION_REPO_ERROR_CODES, sessionRepoError, type SessionRepoError } from './session-repo-error';

/**
 * Where the coordinator replicas sharing a database serve (their `wss:` URLs), kept in that database: each replica
 * announces itself while it runs and withdraws when it stops, and one that died drops out once it has not been seen
 * for a while. Times are the server's, so replicas' clocks need not agree.
 */
export interface ReplicaRegistry {
  /** Records this replica's URL as seen now (again, as a heartbeat). */
  announce(url: string): Promise<Result<void, SessionRepoError>>;
  /** Removes it (a replica stopping). */
  withdraw(url: string): Promise<Result<void, SessionRepoError>>;
  /** The URLs seen within the last `freshMs`, in URL order. */
  list(freshMs: number): Promise<Result<string[], SessionRepoError>>;
}

const URL_FORM = /^wss?:\/\/\S+$/;
const MAX_URL_LENGTH = 2048;

/** Runs one statement on the pool (no workspace scope: the table holds no workspace's rows). */
type Run = <T extends pg.QueryResultRow>(
  operation: string,
  text: string,
  values: unknown[],
) => Promise<Result<T[], SessionRepoError>>;

export function replicaRegistry(run: Run): ReplicaRegistry {
  const invalid = (url: string) =>
    err(
      sessionRepoError(
        SESSION_REPO_ERROR_CODES.invalid,
        `A replica URL is a ws:// or wss:// URL of at most ${MAX_URL_LENGTH} characters: ${JSON.stringify(url.slice(0, 80))}`,
      ),
    );
  const checked = (url: string) => URL_FORM.test(url) && url.length <= MAX_URL_LENGTH;
  return {
    async announce(url) {
      if (!checked(url)) return invalid(url);
      const done = await run(
        'announce a replica',
        'INSERT INTO replicas (url, seen_at) VALUES ($1, now()) ON CONFLICT (url) DO UPDATE SET seen_at = now()',
        [url],
      );
      return done.map(() => undefined);
    },
    async withdraw(url) {
      if (!checked(url)) return invalid(url);
      return (await run('withdraw a replica', 'DELETE FROM replicas WHERE url = $1', [url])).map(() => undefined);
    },
    async list(freshMs) {
      if (!Number.isFinite(freshMs) || freshMs <= 0)
        return err(sessionRepoError(SESSION_REPO_ERROR_CODES.invalid, `freshMs must be positive: ${freshMs}`));
      const rows = await run<{ url: string }>(
        'list the replicas',
        "SELECT url FROM replicas WHERE seen_at > now() - $1 * interval '1 millisecond' ORDER BY url",
        [Math.round(freshMs)],
      );
      return rows.map((found) => found.map((row) => row.url));
    },
  };
}
