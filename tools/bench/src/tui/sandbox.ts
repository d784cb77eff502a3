import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { coordinatorFiles, isRunning, listRunningSessions, piDirectories } from '@pi/connection-files';

/** A private pi installation: XDG data/config/runtime directories and a project, all in one temporary folder. */
export interface Sandbox {
  readonly project: string;
  readonly dataDir: string;
  readonly env: NodeJS.ProcessEnv;
  /**
   * Stops the coordinator `pi-tui --start` left running in it (by the pid in its lock file: it is a daemon that
   * outlives the TUI), then any session still running from it (by the pid in its connection file), then deletes it.
   */
  remove(): Promise<void>;
}

export async function createSandbox(): Promise<Sandbox> {
  const folder = await mkdtemp(join(tmpdir(), 'pi-bench-cold-'));
  const [data, config, runtime, project] = ['data', 'config', 'run', 'project'].map((name) => join(folder, name)) as [
    string,
    string,
    string,
    string,
  ];
  await Promise.all([data, config, runtime, project].map((path) => mkdir(path, { mode: 0o700 })));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    XDG_DATA_HOME: data,
    XDG_CONFIG_HOME: config,
    XDG_RUNTIME_DIR: runtime,
  };
  // npm sets INIT_CWD, and pi-tui prefers it to its cwd: the session would be looked for in the workspace.
  delete env['INIT_CWD'];
  const dataDir = join(data, 'pi');
  return {
    project,
    dataDir,
    env,
    async remove() {
      const coordinator = await coordinatorPid(env);
      if (coordinator !== undefined) await stop(coordinator);
      // A session a killed pi-tui could not stop was started by this benchmark: stop it before removing its files.
      const left = await listRunningSessions(dataDir);
      for (const session of left) process.kill(session.pid, 'SIGTERM');
      for (const session of left) await until(() => !isRunning(session.pid));
      await rm(folder, { recursive: true, force: true });
    },
  };
}

/** The pid of the coordinator running from these directories, if one runs. */
async function coordinatorPid(env: NodeJS.ProcessEnv): Promise<number | undefined> {
  const text = await readFile(coordinatorFiles(piDirectories(env)).lockFile, 'utf8').catch(() => '');
  const pid = Number(text.trim());
  return Number.isInteger(pid) && pid > 0 && isRunning(pid) ? pid : undefined;
}

/** SIGTERM, and SIGKILL if it is still running 5 s later. */
async function stop(pid: number): Promise<void> {
  process.kill(pid, 'SIGTERM');
  await until(() => !isRunning(pid));
  if (isRunning(pid)) process.kill(pid, 'SIGKILL');
}

async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition() && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}
