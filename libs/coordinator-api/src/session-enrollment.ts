import { z } from 'zod';
import type { Context } from '@pi/context';
import { defineRemoteService } from '@pi/remote';

const identifier = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'letters, digits, "_" or "-" (at most 64)');

/** A session the user will run on another host: its project directory there, and optionally its id and title. */
export interface SessionEnrollmentRequest {
  /** The absolute project directory on the host that runs the session; its workspace follows from it. */
  cwd: string;
  title?: string;
  /** An existing record of this id (same directory) is enrolled again: a new credential for the same session. */
  sessionId?: string;
}

/** What the session needs to register upstream: its id, its workspace, and the credential any replica verifies. */
export interface EnrolledSession {
  sessionId: string;
  workspaceId: string;
  credential: string;
}

/**
 * How the user enrolls a session that runs elsewhere (another data directory, another host): the coordinator keeps
 * a record of it and issues its per-session credential, which `pi-session --coordinator URL --credential-file FILE`
 * presents. Served by the coordinator host itself, for the user only; a session cannot enroll another.
 */
export interface SessionEnrollmentService {
  enroll(request: SessionEnrollmentRequest, context: Context): Promise<EnrolledSession>;
}

export const SessionEnrollment = defineRemoteService<SessionEnrollmentService>('session-enrollment', {
  methods: {
    enroll: {
      args: [
        z.strictObject({
          cwd: z.string().min(1).max(4096).startsWith('/', 'an absolute directory'),
          title: z.string().min(1).max(200).optional(),
          sessionId: identifier.optional(),
        }),
      ],
      result: z.strictObject({ sessionId: identifier, workspaceId: identifier, credential: z.string().min(1) }),
    },
  },
  state: {},
  events: {},
});
