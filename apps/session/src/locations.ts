import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
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
  const dataDir = resolve(options.dataDir ?? join(env['XDG_DATA_HOME'] ?? join(homedir(), '.local', 'share'), 'pi'));
  const configDir = resolve(options.configDir ?? join(env['XDG_CONFIG_HOME'] ?? join(homedir(), '.config'), 'pi'));
  const runtimeDir = env['XDG_RUNTIME_DIR'] === undefined ? join(dataDir, 'run') : join(env['XDG_RUNTIME_DIR'], 'pi');
  return {
    dataDir,
    configDir,
    sessionFile: join(dataDir, 'sessions', `${sessionId}.jsonl`),
    socketPath: resolve(options.socket ?? join(runtimeDir, `${sessionId}.sock`)),
    connectionFile: join(dataDir, 'sessions', `${sessionId}.connection.json`),
  };
}
