import type { TRPCError, TRPC_ERROR_CODE_KEY, TRPC_ERROR_CODE_NUMBER } from '@trpc/server';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import { RemoteError, quoteForError, type RemoteErrorEnvelope } from '@pi/remote';
import { httpStatusOf, trpcCodeOf } from './trpc-error-codes';

interface FormatInput {
  readonly shape: { code: number; message: string };
  readonly error: TRPCError;
  readonly path: string | undefined;
  readonly ctx?: { readonly endpoint?: { hasService(id: string): boolean } } | undefined;
}

/** The `data` of every error: tRPC's code and HTTP status, as a stock client checks them, and pi's envelope. */
export interface WireErrorData {
  /** The tRPC code of `remote.code` (trpc-error-codes.ts), e.g. `BAD_REQUEST` for `invalid_argument`. */
  code: TRPC_ERROR_CODE_KEY;
  httpStatus: number;
  /** pi's error as the service threw it: what pi's own client turns back into the same RemoteError. */
  remote: RemoteErrorEnvelope;
}

/**
 * Every error leaves the server as `{ code, message, data: { code, httpStatus, remote: { code, message, data? } } }`:
 * a RemoteError as the service threw it, tRPC's own failures under our stable codes, and anything else
 * as `internal` with a generic message, so no stack, cause or secret-bearing message can cross. The outer `code`
 * and `data.code` are tRPC's for pi's code, so a stock client's `TRPCClientError` handling works.
 */
export function formatError({ error, path, ctx }: FormatInput): {
  code: TRPC_ERROR_CODE_NUMBER;
  message: string;
  data: WireErrorData;
} {
  const remote = toEnvelope(error, path, (id) => ctx?.endpoint?.hasService(id) ?? false);
  // No endpoint: the connection was refused before it was authenticated.
  return wireError(remote, ctx?.endpoint !== undefined);
}

/** pi's envelope as an error leaves the server: tRPC's code for it, beside the envelope itself. */
export function wireError(
  remote: RemoteErrorEnvelope,
  authenticated: boolean,
): { code: TRPC_ERROR_CODE_NUMBER; message: string; data: WireErrorData } {
  const code = trpcCodeOf(remote.code, authenticated);
  return {
    code: TRPC_ERROR_CODES_BY_KEY[code],
    message: remote.message,
    data: { code, httpStatus: httpStatusOf(code), remote },
  };
}

function toEnvelope(
  error: TRPCError,
  path: string | undefined,
  hasService: (id: string) => boolean,
): RemoteErrorEnvelope {
  if (error.cause instanceof RemoteError) return error.cause.toEnvelope();
  switch (error.code) {
    case 'NOT_FOUND':
      return notFound(path, hasService);
    case 'BAD_REQUEST':
      return { code: 'invalid_argument', message: 'Malformed request' };
    case 'PARSE_ERROR':
      return { code: 'invalid_argument', message: 'Malformed frame' };
    case 'UNAUTHORIZED':
    case 'FORBIDDEN':
      return { code: 'not_authorized', message: 'Not authorized' };
    case 'UNPROCESSABLE_CONTENT':
    case 'UNSUPPORTED_MEDIA_TYPE':
      return { code: 'invalid_argument', message: 'Unsupported message' };
    default:
      return { code: 'internal', message: 'Internal error' };
  }
}

/**
 * tRPC says only "no such procedure"; the first path segment tells a missing service from a missing member. The
 * path is the client's, of any length: both names are quoted bounded.
 */
function notFound(path: string | undefined, hasService: (id: string) => boolean): RemoteErrorEnvelope {
  const [service = '', member = ''] = (path ?? '').split('.', 2);
  return hasService(service) || service === '$rpc'
    ? { code: 'unknown_member', message: `Unknown member ${quoteForError(member)} of ${service}` }
    : { code: 'unknown_service', message: `Unknown service ${quoteForError(service)}` };
}
