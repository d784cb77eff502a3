import type { Result } from 'neverthrow';
import type { NewSessionRecord, SessionRecord, SessionStatus } from '@pi/plugin-api';
import type { RecordChanges } from './postgres-record-changes';
import type { ReplicaRegistry } from './postgres-replica-registry';
import type { SessionAddresses } from './postgres-session-addresses';
import type { SessionRepoError } from './session-repo-error';

/** A new record, optionally with the id the caller chose (the session app's `--session`). */
export type SessionRepoCreate = NewSessionRecord & { readonly sessionId?: string };

export interface SessionRepoListFilter {
  readonly workspaceId?: string;
}

/**
 * The record as the writer last read it: a write that names it is refused as `conflict` when the record changed
 * since. `updatedAt` is the record's revision: every change moves it forward, by a millisecond past the previous one
 * when the clock has not moved, so two changes never share it.
 */
export interface SessionRepoExpectation {
  readonly updatedAt: string;
}

/**
 * The coordinator's durable session records. Every method is async and reports failure as a value, so a
 * PostgreSQL implementation fills the same interface; nothing here exposes the store behind it. Used by the
 * coordinator application only: plugins see the scoped `FleetRecords` of `@pi/plugin-api`.
 */
export interface SessionRepo {
  /** Stores a new record: status `closed` until a process starts, `createdAt = updatedAt = now`, an id generated
   *  (`s-YYYY-MM-DD-<8 hex>`) when none is given. */
  create(record: SessionRepoCreate): Promise<Result<SessionRecord, SessionRepoError>>;
  /** The record, or undefined when there is none (or the repository cannot read it). */
  get(sessionId: string): Promise<SessionRecord | undefined>;
  /** Records by `updatedAt` descending, then `sessionId`; only one workspace's when filtered. */
  list(filter?: SessionRepoListFilter): Promise<readonly SessionRecord[]>;
  /** A chosen title (no longer provisional); `updatedAt` moves only when the title changes. */
  rename(
    sessionId: string,
    title: string,
    expected?: SessionRepoExpectation,
  ): Promise<Result<SessionRecord, SessionRepoError>>;
  /** Replaces the title only while it is provisional (then no longer); otherwise the record comes back unchanged. */
  suggestTitle(
    sessionId: string,
    title: string,
    expected?: SessionRepoExpectation,
  ): Promise<Result<SessionRecord, SessionRepoError>>;
  /** Sets the status; `updatedAt` moves only when the status changes. */
  setStatus(
    sessionId: string,
    status: SessionStatus,
    expected?: SessionRepoExpectation,
  ): Promise<Result<SessionRecord, SessionRepoError>>;
  remove(sessionId: string, expected?: SessionRepoExpectation): Promise<Result<void, SessionRepoError>>;
  /**
   * What records other coordinators may share hold besides (PostgreSQL's); absent on records this process alone
   * keeps (SQLite's). The repository says so where it is opened, so no caller has to probe for it.
   */
  readonly shared?: SharedRecords;
  /** Releases the store; every call after it is a `storage` error value. */
  close(): Promise<void>;
}

/**
 * Records the coordinator replicas share: their changes announced from whichever process made them, where the
 * replicas serve, and where the sessions connected to each serve presentations.
 */
export interface SharedRecords extends RecordChanges {
  readonly replicas: ReplicaRegistry;
  readonly addresses: SessionAddresses;
}

export interface SessionRepoOptions {
  /** The clock behind `createdAt`, `updatedAt` and generated ids; tests inject one. */
  readonly now?: () => Date;
}
