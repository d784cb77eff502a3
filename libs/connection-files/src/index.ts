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
