import { join, resolve } from 'node:path';
import { connectionFilePath, piDirectories, sessionFilePath } from '@pi/connection-files';
import type { CliOptions } from './cli-options';

export interface Locations {
  readonly dataDir: string;
  readonly configDir: string;
  readonly sessionFile: string;
  readonly socketPath: string;
  readonly connectionFile: string;
}

/** Where a session's files go, by XDG base directories unless flags say otherwise. */
export function locate(options: CliOptions, sessionId: string, env: NodeJS.ProcessEnv): Locations {
  const { dataDir, configDir, runtimeDir } = piDirectories(env, options);
  return {
    dataDir,
    configDir,
    sessionFile: sessionFilePath(dataDir, sessionId),
    socketPath: resolve(options.socket ?? join(runtimeDir, `${sessionId}.sock`)),
    connectionFile: connectionFilePath(dataDir, sessionId),
  };
}
