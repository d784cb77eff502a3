import { readFile } from 'node:fs/promises';
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

/** The pid a coordinator's lock or pid file holds (`<pid>\n`); undefined when the file is missing or holds none. */
export async function readPidFile(path: string): Promise<number | undefined> {
  const text = await readFile(path, 'utf8').catch(() => undefined);
  const pid = Number(text?.trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}
