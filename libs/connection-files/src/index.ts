export {
  connectionInfoSchema,
  findRunningSession,
  isRunning,
  listRunningSessions,
  readConnectionFile,
  removeConnectionFile,
  writeConnectionFile,
  type ConnectionInfo,
} from './connection-file';
export { connectionFilePath, piDirectories, type PiDirectories } from './pi-directories';
export {
  coordinatorConnectionSchema,
  coordinatorFiles,
  readCoordinatorConnection,
  workspaceIdOf,
  writeCoordinatorConnection,
  type CoordinatorConnection,
  type CoordinatorFiles,
} from './coordinator-files';
