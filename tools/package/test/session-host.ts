import { spawn } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WORKSPACE_ROOT } from '../src/workspace-root';

const BIN = join(WORKSPACE_ROOT, 'apps', 'session', 'bin', 'pi-session.mjs');
const LISTENING = /listening on (\S+).* \(connection file: (\S+)\)$/m;

/** A real `pi-session` process with its home in a private temporary folder. */
export interface SessionHost extends AsyncDisposable {
  readonly socketPath: string;
  readonly token: string;
  /** The project the session works in, and where its connection file lives. */
  readonly cwd: string;
  readonly dataDir: string;
}

/** Starts `pi-session` on `manifest` (a JSON manifest file) and resolves once it listens. */
export async function startSessionHost(home: string, manifest: string): Promise<SessionHost> {
  const dirs = { cwd: join(home, 'project'), run: join(home, 'run') };
  await mkdir(dirs.cwd, { recursive: true });
  await mkdir(dirs.run, { recursive: true, mode: 0o700 });
  const args = ['--cwd', dirs.cwd, '--data-dir', join(home, 'data'), '--config-dir', join(home, 'config')];
  args.push('--manifest', manifest, '--socket', join(dirs.run, 's.sock'));
  const env = { ...process.env, XDG_RUNTIME_DIR: dirs.run, XDG_DATA_HOME: home, XDG_CONFIG_HOME: home };
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
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
    dataDir: join(home, 'data'),
    async [Symbol.asyncDispose]() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
