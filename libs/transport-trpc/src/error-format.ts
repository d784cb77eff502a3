import type { TRPCError } from '@trpc/server';
import { RemoteError, quoteForError, type RemoteErrorEnvelope } from '@pi/remote';

interface FormatInput {
  readonly shape: { code: number; message: string };
  readonly error: TRPCError;
  readonly path: string | undefined;
  readonly ctx?: { readonly endpoint?: { hasService(id: string): boolean } } | undefined;
}

/**
 * Every error leaves the server as `{ code, message, data: { remote: { code, message, data? } } }`:
 * a RemoteError as the service threw it, tRPC's own failures under our stable codes, and anything else
 * as `internal` with a generic message, so no stack, cause or secret-bearing message can cross.
 */
export function formatError({ shape, error, path, ctx }: FormatInput): {
  code: number;
  message: string;
  data: { remote: RemoteErrorEnvelope };
} {
  const remote = toEnvelope(error, path, (id) => ctx?.endpoint?.hasService(id) ?? false);
  return { code: shape.code, message: remote.message, data: { remote } };
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
