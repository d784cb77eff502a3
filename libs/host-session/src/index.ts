export { absentUpstream } from './absent-upstream';
export {
  startSessionHost,
  type SessionHost,
  type SessionHostDiagnostics,
  type SessionHostError,
  type SessionHostOptions,
} from './session-host';
