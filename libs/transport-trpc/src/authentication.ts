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

/**
 * Accepts a shared secret, compared in constant time, and names the caller `principal`. Several secrets (a session's
 * own token and the credential its coordinator relays presentations with) each admit as the same caller.
 */
export function tokenAuthentication(expected: string | readonly string[], identity: CallerIdentity): Authenticate {
  const secrets = (typeof expected === 'string' ? [expected] : expected).map((secret) => Buffer.from(secret, 'utf8'));
  return (params) => {
    const presented = params?.['token'];
    if (typeof presented !== 'string') return err('No token presented');
    const presentedBytes = Buffer.from(presented, 'utf8');
    // Every secret is compared, so the time taken does not say which one nearly matched.
    let matches = false;
    for (const secret of secrets)
      if (presentedBytes.length === secret.length && timingSafeEqual(presentedBytes, secret)) matches = true;
    return matches ? ok(identity) : err('Wrong token');
  };
}
