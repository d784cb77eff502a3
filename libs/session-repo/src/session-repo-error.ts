/** Why a repository operation failed. `storage` is anything the store itself refused or could not do. */
export const SESSION_REPO_ERROR_CODES = {
  not_found: 'not_found',
  duplicate: 'duplicate',
  invalid: 'invalid',
  /** The record changed since the writer read it (its `updatedAt` moved): re-read, then decide again. */
  conflict: 'conflict',
  storage: 'storage',
} as const;

export type SessionRepoErrorCode = (typeof SESSION_REPO_ERROR_CODES)[keyof typeof SESSION_REPO_ERROR_CODES];

/** A failure as a value: repository methods return it, they never throw it. */
export interface SessionRepoError {
  readonly code: SessionRepoErrorCode;
  readonly message: string;
}

export function sessionRepoError(code: SessionRepoErrorCode, message: string): SessionRepoError {
  return { code, message };
}

/** Any value a storage driver threw, as a `storage` error; `context` says what was being done. */
export function toStorageError(cause: unknown, context: string): SessionRepoError {
  const detail = cause instanceof Error ? cause.message : String(cause);
  return sessionRepoError(SESSION_REPO_ERROR_CODES.storage, `${context}: ${detail}`);
}

/** `get` and `list` have no error channel: when the store cannot be read they reject with this (code `storage`). */
export class SessionRepoReadError extends Error {
  override readonly name = 'SessionRepoReadError';
  readonly code = SESSION_REPO_ERROR_CODES.storage;
}
