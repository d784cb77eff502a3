export { absentUpstream } from './absent-upstream';
export { coordinatorUpstream, type CoordinatorUpstream } from './coordinator-upstream';
export {
  startSessionHost,
  type SessionHost,
  type SessionHostDiagnostics,
  type SessionHostError,
  type SessionHostOptions,
} from './session-host';
