import { inject } from 'vitest';
import type { TestProject } from 'vitest/node';
import { startPostgresCluster, type PostgresClusterStart } from './postgres-cluster';

export {
  TEST_POSTGRES_DATABASE,
  TEST_POSTGRES_ROLE,
  createTestDatabase,
  databaseUrl,
  findPostgresBin,
  startPostgresCluster,
  type PostgresCluster,
  type PostgresClusterStart,
} from './postgres-cluster';

/** What a test file learns of the run's PostgreSQL (`inject('piPostgres')`): a server to use, or why there is none. */
export type TestPostgres =
  | { readonly available: true; readonly url: string; readonly adminUrl: string }
  | { readonly available: false; readonly reason: string };

declare module 'vitest' {
  export interface ProvidedContext {
    piPostgres: TestPostgres;
  }
}

/** The run's PostgreSQL, as the project's global setup provided it (a run without that setup has none). */
export function testPostgres(): TestPostgres {
  return (
    (inject('piPostgres') as TestPostgres | undefined) ?? {
      available: false,
      reason: "the project's global setup did not run (run its tests with its vitest.config.ts)",
    }
  );
}

/** The run's one cluster, shared by every project whose global setup asks for it in this process. */
interface SharedCluster {
  users: number;
  readonly started: Promise<PostgresClusterStart>;
}

const SHARED = Symbol.for('pi.test-support.postgres-cluster');

/**
 * A vitest global setup (re-export it as a project's `globalSetup` file's default): starts one throwaway cluster for
 * the whole run (or uses `PI_TEST_DATABASE_URL`), provides it to the tests, and stops it when the last project is
 * done. Without PostgreSQL it says so on the run's output, and the suites that need it skip with the reason.
 */
export default async function postgresGlobalSetup(project: TestProject): Promise<() => Promise<void>> {
  const given = process.env['PI_TEST_DATABASE_URL'];
  if (given !== undefined && given !== '') {
    project.provide('piPostgres', {
      available: true,
      url: given,
      adminUrl: process.env['PI_TEST_DATABASE_ADMIN_URL'] ?? given,
    });
    return async () => undefined;
  }
  const holder = globalThis as { [SHARED]?: SharedCluster };
  const shared = (holder[SHARED] ??= { users: 0, started: startPostgresCluster() });
  shared.users += 1;
  const started = await shared.started;
  if (started.ok) {
    project.provide('piPostgres', { available: true, url: started.cluster.url, adminUrl: started.cluster.adminUrl });
  } else {
    project.provide('piPostgres', { available: false, reason: started.reason });
    process.stdout.write(`\n${project.name}: PostgreSQL suites SKIPPED: ${started.reason}\n\n`);
  }
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    delete holder[SHARED];
    if (started.ok) await started.cluster.stop();
  };
}
