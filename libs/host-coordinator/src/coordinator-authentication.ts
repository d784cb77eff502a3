import { timingSafeEqual } from 'node:crypto';
import { err, ok } from 'neverthrow';
import { sessionCallerIdentity, userCallerIdentity } from '@pi/plugin-api';
import type { SessionRepo } from '@pi/session-repo';
import type { Authenticate } from '@pi/transport-trpc';
import type { SessionCredentials } from './session-credentials';

/**
 * The coordinator's transport policy: the local user's token makes a user connection; a session credential this
 * coordinator issued, for a session that still has a record, makes that session's connection. Nothing a client
 * sends besides its token counts.
 */
export function coordinatorAuthentication(options: {
  readonly userToken: string;
  readonly userPrincipal: string;
  readonly credentials: SessionCredentials;
  readonly repo: Pick<SessionRepo, 'get'>;
}): Authenticate {
  const userBytes = Buffer.from(options.userToken, 'utf8');
  return async (params) => {
    const token = params?.['token'];
    if (typeof token !== 'string') return err('No token presented');
    const presented = Buffer.from(token, 'utf8');
    if (presented.length === userBytes.length && timingSafeEqual(presented, userBytes)) {
      return ok(userCallerIdentity(options.userPrincipal));
    }
    const session = options.credentials.verify(token);
    if (session === undefined) return err('Wrong token');
    const record = await options.repo.get(session.sessionId);
    if (record === undefined || record.workspaceId !== session.workspaceId) return err('The session has no record');
    return ok(sessionCallerIdentity(session));
  };
}
