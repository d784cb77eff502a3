import { SessionDirectory } from '@pi/session-directory';
import { SessionPresence } from './session-presence';

/** The services a coordinator built from the default manifest serves: what `pi sessions` and sessions call. */
export const coordinatorTokens = { SessionDirectory, SessionPresence } as const;

export type CoordinatorTokens = typeof coordinatorTokens;
