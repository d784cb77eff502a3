import { isAbsolute } from 'node:path';
import { err, ok, type Result } from 'neverthrow';
import { SESSION_STATUSES, type NewSessionRecord, type SessionStatus } from '@pi/plugin-api';
import { SESSION_REPO_ERROR_CODES, sessionRepoError, type SessionRepoError } from './session-repo-error';

export const SESSION_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
export const MAX_TITLE_LENGTH = 200;
export const MAX_PRINCIPAL_LENGTH = 200;
export const MAX_CWD_LENGTH = 4096;

// C0, DEL and C1 control characters (tabs and newlines included: a title is one line).
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

type Checked<T> = Result<T, SessionRepoError>;

function invalid(message: string): Checked<never> {
  return err(sessionRepoError(SESSION_REPO_ERROR_CODES.invalid, message));
}

export function checkSessionId(sessionId: unknown): Checked<string> {
  if (typeof sessionId !== 'string' || !SESSION_ID_PATTERN.test(sessionId))
    return invalid(
      'sessionId must be 1 to 64 letters, digits, "_" or "-", starting with a letter or digit: ' +
        JSON.stringify(String(sessionId).slice(0, 80)),
    );
  return ok(sessionId);
}

/** The title trimmed: 1 to 200 characters, no control characters. */
export function checkTitle(title: unknown): Checked<string> {
  if (typeof title !== 'string') return invalid('title must be a string');
  const trimmed = title.trim();
  if (trimmed.length === 0) return invalid('title must not be empty');
  if (trimmed.length > MAX_TITLE_LENGTH) return invalid(`title must be at most ${MAX_TITLE_LENGTH} characters`);
  if (CONTROL_CHARACTER.test(trimmed)) return invalid('title must not contain control characters');
  return ok(trimmed);
}

function checkPrincipal(field: 'workspaceId' | 'ownerId', value: unknown): Checked<string> {
  if (typeof value !== 'string' || value.length === 0) return invalid(`${field} must be a non-empty string`);
  if (value.length > MAX_PRINCIPAL_LENGTH)
    return invalid(`${field} must be at most ${MAX_PRINCIPAL_LENGTH} characters`);
  if (CONTROL_CHARACTER.test(value)) return invalid(`${field} must not contain control characters`);
  return ok(value);
}

export function checkWorkspaceId(workspaceId: unknown): Checked<string> {
  return checkPrincipal('workspaceId', workspaceId);
}

function checkCwd(cwd: unknown): Checked<string> {
  if (typeof cwd !== 'string' || !isAbsolute(cwd)) return invalid('cwd must be an absolute path');
  if (cwd.length > MAX_CWD_LENGTH) return invalid(`cwd must be at most ${MAX_CWD_LENGTH} characters`);
  return ok(cwd);
}

export function checkStatus(status: unknown): Checked<SessionStatus> {
  return SESSION_STATUSES.includes(status as SessionStatus)
    ? ok(status as SessionStatus)
    : invalid(`status must be one of ${SESSION_STATUSES.join(', ')}`);
}

/** A caller's new record, checked field by field and normalised (the title trimmed). */
export function checkNewRecord(record: NewSessionRecord): Checked<Required<NewSessionRecord>> {
  return checkTitle(record.title).andThen((title) =>
    checkWorkspaceId(record.workspaceId).andThen((workspaceId) =>
      checkPrincipal('ownerId', record.ownerId).andThen((ownerId) =>
        checkCwd(record.cwd).map((cwd) => ({
          title,
          provisionalTitle: record.provisionalTitle === true,
          workspaceId,
          ownerId,
          cwd,
        })),
      ),
    ),
  );
}
