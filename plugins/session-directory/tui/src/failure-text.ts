import { RemoteError } from '@pi/plugin-api';
import { SESSION_PICKER_ERRORS } from '@pi/session-directory';
import { printable } from './session-rows';

/** The codes a picker call fails with that get their own wording; any other code shows its message and code. */
export const EXPLAINED_CODES = Object.freeze({
  ...SESSION_PICKER_ERRORS,
  notAuthorized: 'not_authorized',
  unknownService: 'unknown_service',
});

type ExplainedCode = (typeof EXPLAINED_CODES)[keyof typeof EXPLAINED_CODES];

const explained = new Set<string>(Object.values(EXPLAINED_CODES));
const isExplained = (code: string): code is ExplainedCode => explained.has(code);

function explain(code: ExplainedCode, message: string): string {
  switch (code) {
    case 'unavailable':
      // The service says what is unavailable (the coordinator is unreachable, or there is none).
      return message;
    case 'unknown_session':
      return `that session is not in this project's list (any more): ${message}`;
    case 'current_session':
      return 'that is the session you are in — switch to another one first';
    case 'not_authorized':
      return `not allowed: ${message}`;
    case 'unknown_service':
      return 'this session has no session directory (@pi/session-directory is not in its manifest)';
  }
}

/** Any failure of a picker call (or of switching) as one line for a notice. */
export function failureText(failure: unknown): string {
  if (failure instanceof RemoteError) {
    const message = printable(failure.message).trim();
    return isExplained(failure.code) ? explain(failure.code, message) : `${message} (${failure.code})`;
  }
  return printable(failure instanceof Error ? failure.message : String(failure)).trim();
}
