export {
  SessionControl,
  type SessionControlEvent,
  type SessionControlService,
  type SessionControlState,
} from './session-control';
export { SessionPresence, type SessionPresenceReport, type SessionPresenceService } from './session-presence';
export {
  SessionEnrollment,
  type EnrolledSession,
  type SessionEnrollmentRequest,
  type SessionEnrollmentService,
} from './session-enrollment';
export { coordinatorTokens, type CoordinatorTokens } from './coordinator-tokens';
