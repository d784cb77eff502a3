import { join } from 'node:path';
import type { PiDirectories } from './pi-directories';

// Paths only, with no schema: pi-tui's entry finds the coordinator's files before it loads zod (a subpath export).

/** Where the coordinator daemon keeps its runtime files: one per user, all in the runtime directory. */
export interface CoordinatorFiles {
  readonly socketPath: string;
  readonly pidFile: string;
  /** Held (exclusively created) by the running coordinator; a second start finds it and attaches instead. */
  readonly lockFile: string;
  /** How the local user's programs connect: socket path, the user token, pid (mode 0600). */
  readonly connectionFile: string;
  /** Where session processes the coordinator started write their output. */
  readonly logDir: string;
}

export function coordinatorFiles(directories: PiDirectories): CoordinatorFiles {
  return {
    socketPath: join(directories.runtimeDir, 'coordinator.sock'),
    pidFile: join(directories.runtimeDir, 'coordinator.pid'),
    lockFile: join(directories.runtimeDir, 'coordinator.lock'),
    connectionFile: join(directories.runtimeDir, 'coordinator.json'),
    logDir: join(directories.dataDir, 'logs'),
  };
}
