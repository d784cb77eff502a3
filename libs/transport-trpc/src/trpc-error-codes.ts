import type { TRPC_ERROR_CODE_KEY } from '@trpc/server';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import type { RemoteErrorCode, RemoteErrorEnvelope } from '@pi/remote';

/**
 * The tRPC code a stock client sees for each of pi's stable codes (`err.data?.code`); pi's own code stays in
 * `err.data.remote.code`. `not_authorized` is FORBIDDEN on an authenticated connection and UNAUTHORIZED on one
 * that is not (see `trpcCodeOf`).
 */
const BY_REMOTE_CODE: Record<RemoteErrorCode, TRPC_ERROR_CODE_KEY> = {
  cancelled: 'CLIENT_CLOSED_REQUEST',
  disconnected: 'SERVICE_UNAVAILABLE',
  unknown_service: 'NOT_FOUND',
  unknown_member: 'NOT_FOUND',
  invalid_argument: 'BAD_REQUEST',
  invalid_result: 'INTERNAL_SERVER_ERROR',
  stale_reference: 'NOT_FOUND',
  not_authorized: 'FORBIDDEN',
  limit_exceeded: 'TOO_MANY_REQUESTS',
  timeout: 'TIMEOUT',
  no_handler: 'PRECONDITION_FAILED',
  unavailable: 'SERVICE_UNAVAILABLE',
  internal: 'INTERNAL_SERVER_ERROR',
};

/** A service's own codes follow a few naming habits; each names the tRPC code a client would expect for it. */
const BY_SERVICE_CODE_FORM: ReadonlyArray<readonly [RegExp, TRPC_ERROR_CODE_KEY]> = [
  [/^unknown_/, 'NOT_FOUND'],
  [/^invalid_/, 'BAD_REQUEST'],
  [/^(busy|conflict)$|_(exists|running|consumed)$/, 'CONFLICT'],
  [/^deadline_exceeded$|_timeout$/, 'TIMEOUT'],
];

/** The HTTP status tRPC gives each of its codes (`err.data.httpStatus`, as tRPC's default error shape has it). */
const HTTP_STATUS: Record<TRPC_ERROR_CODE_KEY, number> = {
  PARSE_ERROR: 400,
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  PAYMENT_REQUIRED: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_SUPPORTED: 405,
  TIMEOUT: 408,
  CONFLICT: 409,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE_CONTENT: 422,
  PRECONDITION_REQUIRED: 428,
  TOO_MANY_REQUESTS: 429,
  CLIENT_CLOSED_REQUEST: 499,
  INTERNAL_SERVER_ERROR: 500,
  NOT_IMPLEMENTED: 501,
  BAD_GATEWAY: 502,
  SERVICE_UNAVAILABLE: 503,
  GATEWAY_TIMEOUT: 504,
};

/**
 * The tRPC code of a remote error's code: the table for pi's stable codes, the naming habits for a service's own,
 * and UNPROCESSABLE_CONTENT for any other service code (the request was understood; the service could not do it).
 */
export function trpcCodeOf(remoteCode: string, authenticated: boolean): TRPC_ERROR_CODE_KEY {
  if (remoteCode === 'not_authorized' && !authenticated) return 'UNAUTHORIZED';
  if (Object.hasOwn(BY_REMOTE_CODE, remoteCode)) return BY_REMOTE_CODE[remoteCode as RemoteErrorCode];
  for (const [form, code] of BY_SERVICE_CODE_FORM) if (form.test(remoteCode)) return code;
  return 'UNPROCESSABLE_CONTENT';
}

export function httpStatusOf(code: TRPC_ERROR_CODE_KEY): number {
  return HTTP_STATUS[code];
}

/**
 * The error shape of a failure the client makes itself (an abort, a deadline, a closed connection), as the server
 * formats one (`formatError`): tRPC's numeric code, and `data` with tRPC's code and HTTP status beside pi's envelope,
 * so a stock client's `TRPCClientError` handling sees `CLIENT_CLOSED_REQUEST`, `TIMEOUT` or `SERVICE_UNAVAILABLE`
 * whether the host or the link failed the call. A refusal before authentication is `UNAUTHORIZED`.
 */
export function clientErrorShape(
  remote: RemoteErrorEnvelope,
  authenticated = true,
): {
  code: number;
  message: string;
  data: { code: TRPC_ERROR_CODE_KEY; httpStatus: number; remote: RemoteErrorEnvelope };
} {
  const code = trpcCodeOf(remote.code, authenticated);
  return {
    code: TRPC_ERROR_CODES_BY_KEY[code],
    message: remote.message,
    data: { code, httpStatus: httpStatusOf(code), remote },
  };
}
