import { timingSafeEqual } from 'node:crypto';
import { err, ok, type Result } from 'neverthrow';
import type { CallerIdentity } from '@pi/remote';

/** The client's first message, as tRPC hands it over: string keys and values only. */
export type ConnectionParams = Readonly<Record<string, string>> | null;

/**
 * The providing host's policy: turns what a client presented into the identity every call on the
 * connection will carry, or a reason to refuse the connection.
 */
export type Authenticate = (
  params: ConnectionParams,
) => Result<CallerIdentity, string> | Promise<Result<CallerIdentity, string>>;

/** Accepts exactly one shared secret, compared in constant time, and names the caller `principal`. */
export function tokenAuthentication(expected: string, identity: CallerIdentity): Authenticate {
  const expectedBytes = Buffer.from(expected, 'utf8');
  return (params) => {
    const presented = params?.['token'];
    if (typeof presented !== 'string') return err('No token presented');
    const presentedBytes = Buffer.from(presented, 'utf8');
    const matches = presentedBytes.length === expectedBytes.length && timingSafeEqual(presentedBytes, expectedBytes);
    return matches ? ok(identity) : err('Wrong token');
  };
}
