export { SessionProcesses, type SessionProcessesOptions } from './session-processes';
export type { SessionOrchestrator } from './session-orchestrator';
export { SessionsElsewhere, type SessionsElsewhereOptions } from './sessions-elsewhere';
export type { SessionLaunch } from './tracked-process';
export type { SessionCommand } from './spawn-session';
export { isLegalTransition, type SessionStatus } from './session-status';
export { PROCESS_ERROR_CODES, type ProcessError, type ProcessErrorCode } from './process-errors';
export type { ProcessExit, StatusChange, StatusListener } from './status-listeners';
