import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A private temporary home for one test: HOME and the XDG directories point into it, so pi-session and pi-tui
 * find each other's connection files there and nothing touches the user's own. The root stays short: the
 * session's socket lives under XDG_RUNTIME_DIR and its path must stay under ~100 bytes.
 */
export interface Sandbox {
  readonly root: string;
  /** The project directory a session works in. */
  readonly cwd: string;
  /** Where pi keeps sessions and connection files ($XDG_DATA_HOME/pi). */
  readonly dataDir: string;
  /** The environment for every process of the test: the sandbox's directories, a UTF-8 xterm. */
  readonly env: NodeJS.ProcessEnv;
  remove(): Promise<void>;
}

export async function createSandbox(): Promise<Sandbox> {
  const root = await mkdtemp(join(tmpdir(), 'pty-'));
  const home = join(root, 'home');
  const runtimeDir = join(root, 'run');
  const cwd = join(root, 'project');
  await mkdir(home);
  await mkdir(cwd);
  await mkdir(runtimeDir, { mode: 0o700 });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env['PATH'],
    HOME: home,
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    XDG_DATA_HOME: join(root, 'data'),
    XDG_CONFIG_HOME: join(root, 'config'),
    XDG_RUNTIME_DIR: runtimeDir,
  };
  return {
    root,
    cwd,
    dataDir: join(root, 'data', 'pi'),
    env,
    remove: () => rm(root, { recursive: true, force: true }),
  };
}
