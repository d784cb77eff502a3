import { err, ok, type Result } from 'neverthrow';
import type { SessionRecord } from '@pi/plugin-api';
import type { SessionRepoExpectation } from './session-repo';
import { SESSION_REPO_ERROR_CODES, sessionRepoError, type SessionRepoError } from './session-repo-error';

export function notFound(sessionId: string): Result<never, SessionRepoError> {
  return err(sessionRepoError(SESSION_REPO_ERROR_CODES.not_found, `No session record ${sessionId}`));
}

/** The current record, unless the writer read an older one: then the write was refused as a conflict. */
export function staleOr(
  current: SessionRecord,
  expected: SessionRepoExpectation | undefined,
): Result<SessionRecord, SessionRepoError> {
  if (expected === undefined || expected.updatedAt === current.updatedAt) return ok(current);
  return err(
    sessionRepoError(
      SESSION_REPO_ERROR_CODES.conflict,
      `Session record ${current.sessionId} changed since it was read (updatedAt ${expected.updatedAt}, now ${current.updatedAt})`,
    ),
  );
}
