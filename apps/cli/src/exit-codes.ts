import { REMOTE_ERROR_CODES, type RemoteErrorCode } from '@pi/remote';

/** What `pi` exits with. Scripts branch on these; they never change meaning. */
export const EXIT = {
  ok: 0,
  /** pi or the host failed: `internal`, `invalid_result`. */
  failed: 1,
  /** A bad flag, an unknown command, a missing operand. */
  usage: 2,
  /** No session found, none answering, or the connection was lost: `unavailable`, `disconnected`. */
  unavailable: 3,
  /** The token was refused: `not_authorized`. */
  notAuthorized: 4,
  /** No such service or method: `unknown_service`, `unknown_member`. */
  unknownName: 5,
  /** An argument that is not JSON, or that the method's contract refuses: `invalid_argument`. */
  invalidArgument: 6,
  /** The call was interrupted or took too long: `cancelled`, `timeout`. */
  interrupted: 7,
  /** The host could not serve the request now: `limit_exceeded`, `no_handler`, `stale_reference`. */
  refused: 8,
  /** The service's own expected failure, such as `unknown_model`. */
  serviceError: 9,
} as const;

/** Every stable code has an exit code: a new code without one does not compile. */
const BY_CODE: Record<RemoteErrorCode, number> = {
  [REMOTE_ERROR_CODES.internal]: EXIT.failed,
  [REMOTE_ERROR_CODES.invalid_result]: EXIT.failed,
  [REMOTE_ERROR_CODES.unavailable]: EXIT.unavailable,
  [REMOTE_ERROR_CODES.disconnected]: EXIT.unavailable,
  [REMOTE_ERROR_CODES.not_authorized]: EXIT.notAuthorized,
  [REMOTE_ERROR_CODES.unknown_service]: EXIT.unknownName,
  [REMOTE_ERROR_CODES.unknown_member]: EXIT.unknownName,
  [REMOTE_ERROR_CODES.invalid_argument]: EXIT.invalidArgument,
  [REMOTE_ERROR_CODES.cancelled]: EXIT.interrupted,
  [REMOTE_ERROR_CODES.timeout]: EXIT.interrupted,
  [REMOTE_ERROR_CODES.limit_exceeded]: EXIT.refused,
  [REMOTE_ERROR_CODES.no_handler]: EXIT.refused,
  [REMOTE_ERROR_CODES.stale_reference]: EXIT.refused,
};

/** The exit code of an error code: a stable one by the table, any other (a service's own) is `serviceError`. */
export function exitCodeOf(code: string): number {
  return Object.hasOwn(BY_CODE, code) ? BY_CODE[code as RemoteErrorCode] : EXIT.serviceError;
}
