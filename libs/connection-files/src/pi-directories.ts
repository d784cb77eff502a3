import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** Where pi keeps its files on this machine. */
export interface PiDirectories {
  /** Sessions (JSONL) and their connection files. */
  readonly dataDir: string;
  /** Settings, credentials, models.json. */
  readonly configDir: string;
  /** Sockets: short paths, private to the user. */
  readonly runtimeDir: string;
}

/** The XDG base directories (or the given overrides), as every pi program and tool finds them. */
export function piDirectories(
  env: NodeJS.ProcessEnv,
  overrides: { dataDir?: string | undefined; configDir?: string | undefined } = {},
): PiDirectories {
  const dataDir = resolve(overrides.dataDir ?? join(env['XDG_DATA_HOME'] ?? join(homedir(), '.local', 'share'), 'pi'));
  const configDir = resolve(overrides.configDir ?? join(env['XDG_CONFIG_HOME'] ?? join(homedir(), '.config'), 'pi'));
  const runtimeDir = env['XDG_RUNTIME_DIR'] === undefined ? join(dataDir, 'run') : join(env['XDG_RUNTIME_DIR'], 'pi');
  return { dataDir, configDir, runtimeDir };
}

/** The connection file of one session. */
export function connectionFilePath(dataDir: string, sessionId: string): string {
  return join(dataDir, 'sessions', `${sessionId}.connection.json`);
}

/** The session file (JSONL) of one session: the session process writes it, the coordinator reads its header. */
export function sessionFilePath(dataDir: string, sessionId: string): string {
  return join(dataDir, 'sessions', `${sessionId}.jsonl`);
}
