export { absentUpstream } from './absent-upstream';
export {
  MAX_LEARNED_REPLICAS,
  coordinatorUpstream,
  type CoordinatorAddress,
  type CoordinatorUpstream,
} from './coordinator-upstream';
export { reportPresence, type SessionPresence } from './presence-report';
export type { SessionActivity } from './session-activity';
export {
  startSessionHost,
  type SessionHost,
  type SessionHostDiagnostics,
  type SessionHostError,
  type SessionHostOptions,
} from './session-host';
export {
  SESSION_SHUTDOWN_HOOKS_TIMEOUT_MS,
  SESSION_START_HOOK_TIMEOUT_MS,
  type LifecycleHookDeadlines,
} from './session-lifecycle-hooks';
