import type { RemoteErrorEnvelope } from '@pi/remote';
import { VERSION_MISMATCH } from './hello';
import type { ErrorShape } from './rpc-operation';
import { clientErrorShape } from './trpc-error-codes';
import { CLOSE_CODES } from './wire-socket';

/** What an operation fails with when the connection is down or goes down: `disconnected`, or the refusal itself. */
export function disconnectedShape(reason: RemoteErrorEnvelope | undefined): ErrorShape {
  const refused = reason?.code === 'not_authorized' || reason?.code === VERSION_MISMATCH;
  const remote =
    reason !== undefined && refused ? reason : { code: 'disconnected', message: reason?.message ?? 'Not connected' };
  // A refused token is a refusal before authentication: UNAUTHORIZED, as the host's own refusal frame says.
  return clientErrorShape(remote, remote.code !== 'not_authorized');
}

/** Why a socket closed, read from its close code and reason when the host said nothing before. */
export function closeReason(code: number, reason: string): RemoteErrorEnvelope {
  // The code alone is enough: a client that missed the refusal frame must still stop retrying.
  if (code === CLOSE_CODES.notAuthorized) return { code: 'not_authorized', message: 'The host refused the token' };
  if (code === CLOSE_CODES.tooBig) {
    return { code: 'disconnected', message: 'The connection was closed: a frame exceeded the maximum size' };
  }
  const message = reason === '' ? `The connection closed (code ${code})` : `The connection closed: ${reason}`;
  return { code: 'disconnected', message };
}
