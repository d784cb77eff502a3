import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { coordinatorFiles, isRunning, listRunningSessions, piDirectories } from '@pi/connection-files';
import { processesMarked } from '../agents/process-stats';
import { stopProcesses } from '../agents/stop-processes';

/** The environment variable every process started in a sandbox carries (naming it): how they are all found. */
export const SANDBOX_MARKER = 'PI_BENCH_TUI';

/** A private pi installation: XDG data/config/runtime directories and a project, all in one temporary folder. */
export interface Sandbox {
  readonly project: string;
  readonly dataDir: string;
  readonly env: NodeJS.ProcessEnv;
  /**
   * Stops the coordinator `pi-tui --start` left running in it (by the pid in its lock file: it is a daemon that
   * outlives the TUI, and stops its sessions), then whatever else still carries the sandbox's marker (a session
   * whose coordinator was killed, a pi-tui that did not quit), then deletes it.
   */
  remove(): Promise<void>;
}

/** Sandboxes not removed yet: `removeAllSandboxes` stops what runs in them when the benchmark fails or is stopped. */
const open = new Set<Sandbox>();

export async function createSandbox(): Promise<Sandbox> {
  const folder = await mkdtemp(join(tmpdir(), 'pi-bench-cold-'));
  const [data, config, runtime, project] = ['data', 'config', 'run', 'project'].map((name) => join(folder, name)) as [
    string,
    string,
    string,
    string,
  ];
  await Promise.all([data, config, runtime, project].map((path) => mkdir(path, { mode: 0o700 })));
  const marker = `${SANDBOX_MARKER}=${folder}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    XDG_DATA_HOME: data,
    XDG_CONFIG_HOME: config,
    XDG_RUNTIME_DIR: runtime,
    [SANDBOX_MARKER]: folder,
    // npm start in the sandbox: no check for npm's own updates (the sandbox has no npmrc saying so).
    npm_config_update_notifier: 'false',
  };
  // npm sets INIT_CWD, and pi-tui prefers it to its cwd: the session would be looked for in the workspace.
  delete env['INIT_CWD'];
  const dataDir = join(data, 'pi');
  const sandbox: Sandbox = {
    project,
    dataDir,
    env,
    async remove() {
      const coordinator = await coordinatorPid(env);
      if (coordinator !== undefined) await stopProcesses([coordinator], 5000);
      // A session a killed coordinator could not stop: by its connection file, then by the marker.
      await stopProcesses((await listRunningSessions(dataDir)).map((session) => session.pid));
      await stopProcesses(await processesMarked(marker));
      await rm(folder, { recursive: true, force: true });
      open.delete(sandbox);
    },
  };
  open.add(sandbox);
  return sandbox;
}

/** Removes every sandbox still open, stopping what runs in it: at the end of a run, failed or not, and on a signal. */
export async function removeAllSandboxes(): Promise<void> {
  await Promise.all([...open].map((sandbox) => sandbox.remove()));
}

/** The pid of the coordinator running from these directories, if one runs. */
async function coordinatorPid(env: NodeJS.ProcessEnv): Promise<number | undefined> {
  const text = await readFile(coordinatorFiles(piDirectories(env)).lockFile, 'utf8').catch(() => '');
  const pid = Number(text.trim());
  return Number.isInteger(pid) && pid > 0 && isRunning(pid) ? pid : undefined;
}
