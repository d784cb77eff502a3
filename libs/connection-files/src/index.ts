export {
  connectionInfoSchema,
  findRunningSession,
  listRunningSessions,
  readConnectionFile,
  removeConnectionFile,
  writeConnectionFile,
  type ConnectionInfo,
} from './connection-file';
export { connectionFilePath, piDirectories, sessionFilePath, type PiDirectories } from './pi-directories';
export {
  coordinatorConnectionSchema,
  readCoordinatorConnection,
  workspaceIdOf,
  writeCoordinatorConnection,
  type CoordinatorConnection,
} from './coordinator-files';
export { coordinatorFiles, readPidFile, type CoordinatorFiles } from './coordinator-paths';
export {
  HANDOFF_ERROR_CODES,
  UPSTREAM_HANDOFF_FD,
  UPSTREAM_HANDOFF_MAX_BYTES,
  readUpstreamHandoff,
  upstreamHandoffSchema,
  type HandoffError,
  type HandoffErrorCode,
  type UpstreamHandoff,
} from './upstream-handoff';
export { findPiProgram, type PiProgram } from './find-program';
export { isRunning } from './process-liveness';
export { hasEnded, parseProcessStat, readProcessStat, readProcessStatSync, type ProcessStat } from './process-stat';
export {
  readSessionCredentialFile,
  sessionCredentialFileSchema,
  writeSessionCredentialFile,
  type SessionCredentialFile,
} from './credential-file';
