export { SessionPresence, type SessionPresenceReport, type SessionPresenceService } from './session-presence';
export { coordinatorTokens, type CoordinatorTokens } from './coordinator-tokens';
