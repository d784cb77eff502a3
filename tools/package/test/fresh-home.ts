import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { writeLocalModelConfig } from './session-host';

/** A user's home where no pi session runs yet: its own XDG folders, a project, and the local model configured. */
export interface FreshHome extends AsyncDisposable {
  /** An empty project directory; no session runs in it. */
  readonly project: string;
  /**
   * The environment of a shell in that home. PATH holds only node's folder: nothing of this workspace (a test
   * runner puts its node_modules/.bin there, with the checkout's pi-session) can be found on it.
   */
  readonly env: Readonly<Record<string, string>>;
}

export async function createFreshHome(modelServer: string): Promise<FreshHome> {
  const home = await mkdtemp(join(tmpdir(), 'pi-fresh-'));
  const dirs = { project: join(home, 'project'), run: join(home, 'run'), config: join(home, 'config') };
  await mkdir(dirs.project, { recursive: true });
  await mkdir(dirs.run, { recursive: true, mode: 0o700 });
  await writeLocalModelConfig(join(dirs.config, 'pi'), modelServer);
  const env = {
    HOME: home,
    PATH: dirname(process.execPath),
    XDG_CONFIG_HOME: dirs.config,
    XDG_DATA_HOME: join(home, 'data'),
    XDG_RUNTIME_DIR: dirs.run,
  };
  return { project: dirs.project, env, [Symbol.asyncDispose]: () => rm(home, { recursive: true, force: true }) };
}
