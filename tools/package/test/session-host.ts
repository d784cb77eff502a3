import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WORKSPACE_ROOT } from '../src/workspace-root';

const BIN = join(WORKSPACE_ROOT, 'apps', 'session', 'bin', 'pi-session.mjs');
const LISTENING = /listening on (\S+).* \(connection file: (\S+)\)$/m;

/** The local model a session answers with: `local/small` at an OpenAI-compatible server. */
export const LOCAL_MODEL = { provider: 'local', modelId: 'small' } as const;

/** A real `pi-session` process with its home in a private temporary folder. */
export interface SessionHost extends AsyncDisposable {
  readonly socketPath: string;
  readonly token: string;
  /** The project the session works in, and where its connection file lives. */
  readonly cwd: string;
  readonly dataDir: string;
  /** The environment under which a program finds this session by its directory, as a user's shell would. */
  readonly env: Readonly<Record<string, string>>;
}

/** Writes `models.json` and `settings.json` into `configDir`: the default model is `LOCAL_MODEL` at `modelServer`. */
export async function writeLocalModelConfig(configDir: string, modelServer: string): Promise<void> {
  await mkdir(configDir, { recursive: true });
  const models = {
    providers: { [LOCAL_MODEL.provider]: { baseUrl: modelServer, models: [{ id: LOCAL_MODEL.modelId }] } },
  };
  await writeFile(join(configDir, 'models.json'), JSON.stringify(models));
  await writeFile(join(configDir, 'settings.json'), JSON.stringify({ defaultModel: LOCAL_MODEL }));
}

/**
 * Starts `pi-session` (`program`, by default the workspace's) on `manifest` (a JSON manifest file) and resolves once
 * it listens. Its data directory is the default one under `$XDG_DATA_HOME` of `env`, and its default model is
 * `LOCAL_MODEL` at `modelServer` (a base URL).
 */
export async function startSessionHost(
  home: string,
  manifest: string,
  modelServer: string,
  program = BIN,
): Promise<SessionHost> {
  const dirs = {
    cwd: join(home, 'project'),
    run: join(home, 'run'),
    data: join(home, 'pi'),
    config: join(home, 'config'),
  };
  await mkdir(dirs.cwd, { recursive: true });
  await mkdir(dirs.run, { recursive: true, mode: 0o700 });
  await writeLocalModelConfig(dirs.config, modelServer);
  const args = ['--cwd', dirs.cwd, '--data-dir', dirs.data, '--config-dir', dirs.config];
  args.push('--manifest', manifest, '--socket', join(dirs.run, 's.sock'));
  const env = { XDG_RUNTIME_DIR: dirs.run, XDG_DATA_HOME: home, XDG_CONFIG_HOME: home };
  const child = spawn(process.execPath, [program, ...args], { env: { ...process.env, ...env }, stdio: 'pipe' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const line = await new Promise<RegExpExecArray>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const match = LISTENING.exec(stdout);
      if (match !== null) resolve(match);
    });
    void exited.then(() => reject(new Error(`pi-session exited before listening: ${stderr.trim()}`)));
  });
  const connection = JSON.parse(await readFile(line[2] ?? '', 'utf8')) as { socketPath: string; token: string };
  return {
    socketPath: connection.socketPath,
    token: connection.token,
    cwd: dirs.cwd,
    dataDir: dirs.data,
    env,
    async [Symbol.asyncDispose]() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
