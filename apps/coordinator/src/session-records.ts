import { err, ok, type Result } from 'neverthrow';
import {
  describeDatabase,
  openPostgresSessionRepo,
  openSqliteSessionRepo,
  sessionRepoFile,
  type SessionRepo,
} from '@pi/session-repo';

/** Where the records are: PostgreSQL when a database URL is configured, else SQLite under the data directory. */
export function sessionRecordsLocation(database: string | undefined, dataDir: string): string {
  if (database === undefined) return sessionRepoFile(dataDir);
  return `postgres ${describeDatabase(database) ?? '(not a PostgreSQL URL)'}`;
}

/**
 * Opens the coordinator's session records: `--database` (or `PI_DATABASE_URL`) names a PostgreSQL database that
 * replicas may share; without one, SQLite stays the embedded default. A failure is one sentence.
 */
export async function openSessionRecords(
  database: string | undefined,
  dataDir: string,
): Promise<Result<SessionRepo, string>> {
  if (database === undefined) {
    const repo = openSqliteSessionRepo({ file: sessionRepoFile(dataDir) });
    return repo.isErr() ? err(repo.error.message) : ok(repo.value);
  }
  const repo = await openPostgresSessionRepo({ url: database });
  return repo.isErr() ? err(repo.error.message) : ok(repo.value);
}

/** The database URL from the flag, else from the environment; an empty value is none. */
export function configuredDatabase(flag: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  const chosen = flag ?? env['PI_DATABASE_URL'];
  return chosen === undefined || chosen === '' ? undefined : chosen;
}
