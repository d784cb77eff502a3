export { SessionPresence, type SessionPresenceService } from './session-presence';
export { coordinatorTokens, type CoordinatorTokens } from './coordinator-tokens';
