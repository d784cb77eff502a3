import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SessionIdentity } from '@pi/plugin-api';

/**
 * Per-session credentials: `<payload>.<mac>`, the payload naming the session and its workspace, the MAC keyed
 * with the coordinator's secret. Any coordinator holding the secret verifies one without a lookup table, so a
 * restarted coordinator (or, later, another replica) accepts the sessions that are still running.
 */
export interface SessionCredentials {
  issue(session: SessionIdentity): string;
  /** The session a credential names, or undefined when it is not one this coordinator issued. */
  verify(credential: string): SessionIdentity | undefined;
}

const MAX_CREDENTIAL_LENGTH = 1024;

export function sessionCredentials(secret: Buffer): SessionCredentials {
  if (secret.length < 32) throw new Error('The coordinator secret must hold at least 32 bytes');
  const mac = (payload: string) => createHmac('sha256', secret).update(`pi-session-credential.v1.${payload}`).digest();
  return {
    issue(session) {
      const payload = Buffer.from(
        JSON.stringify({ sessionId: session.sessionId, workspaceId: session.workspaceId }),
      ).toString('base64url');
      return `${payload}.${mac(payload).toString('base64url')}`;
    },
    verify(credential) {
      if (credential.length > MAX_CREDENTIAL_LENGTH) return undefined;
      const [payload, signature, extra] = credential.split('.');
      if (payload === undefined || signature === undefined || extra !== undefined) return undefined;
      const presented = Buffer.from(signature, 'base64url');
      const expected = mac(payload);
      if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return undefined;
      try {
        const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
        const { sessionId, workspaceId } = claims;
        return typeof sessionId === 'string' && typeof workspaceId === 'string'
          ? { sessionId, workspaceId }
          : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
