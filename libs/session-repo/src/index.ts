export { LATEST_SCHEMA_VERSION } from './migrations';
export { generateSessionId } from './session-id';
export type {
  SessionRepo,
  SessionRepoCreate,
  SessionRepoExpectation,
  SessionRepoListFilter,
  SessionRepoOptions,
  SharedRecords,
} from './session-repo';
export {
  SESSION_REPO_ERROR_CODES,
  SessionRepoReadError,
  type SessionRepoError,
  type SessionRepoErrorCode,
} from './session-repo-error';
export { openSqliteSessionRepo, sessionRepoFile, type SqliteSessionRepoOptions } from './sqlite-session-repo';
export { checkSessionId } from './validate';
export {
  describeDatabase,
  openPostgresSessionRepo,
  type PostgresSessionRepo,
  type PostgresSessionRepoOptions,
} from './postgres-session-repo';
export type { RecordChanges, SessionRecordChange } from './postgres-record-changes';
export type { ReplicaRegistry } from './postgres-replica-registry';
export type { SessionAddresses } from './postgres-session-addresses';
