import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { err, ok, type Result } from 'neverthrow';

export type SessionIdError = { code: 'invalid_session_id'; message: string };

/**
 * A session id becomes a file name, so it may hold no path separator and may not be `.` or `..`:
 * letters, digits, `.`, `_` and `-`, starting with a letter or digit, at most 128 characters.
 */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export function isValidSessionId(sessionId: string): boolean {
  return SESSION_ID.test(sessionId);
}

/**
 * The default session file: `$XDG_DATA_HOME/pi/sessions/<id>.jsonl`, else `~/.local/share/pi/sessions/<id>.jsonl`.
 * A relative XDG_DATA_HOME is ignored, as the XDG base-directory spec requires.
 */
export function sessionFilePath(
  sessionId: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Result<string, SessionIdError> {
  if (!isValidSessionId(sessionId)) {
    return err({
      code: 'invalid_session_id',
      message: `Session id ${JSON.stringify(sessionId)} is not valid: use letters, digits, ".", "_" and "-" (no path separators)`,
    });
  }
  return ok(join(dataHome(env), 'pi', 'sessions', `${sessionId}.jsonl`));
}

function dataHome(env: Readonly<Record<string, string | undefined>>): string {
  const xdg = env['XDG_DATA_HOME'];
  if (xdg !== undefined && xdg !== '' && isAbsolute(xdg)) return xdg;
  const home = env['HOME'];
  return join(home !== undefined && home !== '' ? home : homedir(), '.local', 'share');
}
