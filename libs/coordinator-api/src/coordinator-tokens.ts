import { SessionDirectory } from '@pi/session-directory';
import { SessionControl } from './session-control';
import { SessionEnrollment } from './session-enrollment';
import { SessionPresence } from './session-presence';

/** The services a coordinator built from the default manifest serves: what `pi sessions` and sessions call. */
export const coordinatorTokens = { SessionDirectory, SessionPresence, SessionEnrollment, SessionControl } as const;

export type CoordinatorTokens = typeof coordinatorTokens;
