import { workspaceIdOf } from '@pi/connection-files';
import type { EnrolledSession, SessionEnrollmentRequest, SessionEnrollmentService } from '@pi/coordinator-api';
import type { Context } from '@pi/context';
import { requireFleetCaller } from '@pi/plugin-api';
import { RemoteError } from '@pi/remote';
import type { SessionRepo } from '@pi/session-repo';
import type { SessionCredentials } from './session-credentials';

/**
 * The user's enrollment of a session that runs elsewhere: a record (closed until the session connects) and its
 * credential. Enrolling an existing record again re-issues the credential, only for the same project directory.
 */
export function sessionEnrollment(
  repo: Pick<SessionRepo, 'create' | 'get'>,
  credentials: SessionCredentials,
): SessionEnrollmentService {
  return {
    async enroll(request: SessionEnrollmentRequest, context: Context): Promise<EnrolledSession> {
      const caller = requireFleetCaller(context);
      if (caller.kind !== 'user') throw new RemoteError('not_authorized', 'Only the user enrolls sessions');
      const workspaceId = workspaceIdOf(request.cwd);
      const existing = request.sessionId === undefined ? undefined : await repo.get(request.sessionId);
      if (existing !== undefined && existing.cwd !== request.cwd) {
        throw new RemoteError(
          'duplicate_session',
          `Session ${existing.sessionId} works in ${existing.cwd}, not ${request.cwd}`,
        );
      }
      const record =
        existing ??
        (
          await repo.create({
            title: request.title ?? request.cwd,
            workspaceId,
            ownerId: caller.principal,
            cwd: request.cwd,
            ...(request.sessionId === undefined ? {} : { sessionId: request.sessionId }),
          })
        ).match(
          (created) => created,
          (error) => {
            throw new RemoteError(error.code === 'duplicate' ? 'duplicate_session' : 'internal', error.message);
          },
        );
      const identity = { sessionId: record.sessionId, workspaceId: record.workspaceId };
      return { ...identity, credential: credentials.issue(identity) };
    },
  };
}
