import { spawn } from 'node:child_process';
import { listRunningSessions, readConnectionFile } from '@pi/connection-files';
import { PI_COORDINATOR_BIN, WORKSPACE_ROOT } from './bins';
import { createSandbox, type Sandbox } from './sandbox';
import { startSession, type SessionProcess } from './session-process';
import { spawnTui, type TuiPty } from './tui-pty';

/**
 * Everything one test starts — a sandbox, session processes, TUIs in ptys — so that `dispose()` (in `afterEach`)
 * kills every process still running and removes the sandbox, whatever the test did.
 */
export interface E2eFixture {
  readonly sandbox: Sandbox;
  /** Starts `pi-session` in the sandbox (`--session ID` reopens one). */
  startSession(args?: readonly string[]): Promise<SessionProcess>;
  /**
   * Starts `pi-tui` with these flags in the sandbox's project, in a pty of 100×30 unless told otherwise, with `env`
   * on top of the sandbox's environment.
   */
  spawnTui(args: readonly string[], size?: { cols: number; rows: number }, env?: NodeJS.ProcessEnv): TuiPty;
  /**
   * Runs the README's `npm start` (workspace root) from the sandbox's project, in a pty of 100×30: npm passes the
   * directory it was run from to pi-tui as INIT_CWD, so the session starts there.
   */
  npmStart(): TuiPty;
  /** A process the test learned of otherwise (a session `pi-tui --start` started), killed on dispose too. */
  reap(pid: number): void;
  /** `pi-coordinator <args>` in the sandbox; resolves with its exit code and output. */
  coordinator(args: readonly string[]): Promise<{ code: number | null; output: string }>;
  dispose(): Promise<void>;
}

export async function createE2eFixture(): Promise<E2eFixture> {
  const sandbox = await createSandbox();
  const sessions: SessionProcess[] = [];
  const tuis: TuiPty[] = [];
  const pids: number[] = [];
  return {
    sandbox,
    async startSession(args = []) {
      const session = await startSession(sandbox, args);
      sessions.push(session);
      return session;
    },
    spawnTui(args, size, env = {}) {
      const tui = spawnTui({ args, cwd: sandbox.cwd, env: { ...sandbox.env, ...env }, ...size });
      tuis.push(tui);
      return tui;
    },
    npmStart() {
      const tui = spawnTui({
        command: { file: 'npm', args: ['start', '--prefix', WORKSPACE_ROOT] },
        cwd: sandbox.cwd,
        // The sandbox's HOME has no npmrc: keep npm from checking for its own updates.
        env: { ...sandbox.env, npm_config_update_notifier: 'false' },
      });
      tuis.push(tui);
      return tui;
    },
    reap: (pid) => void pids.push(pid),
    coordinator: (args) => runCoordinator(args, sandbox),
    async dispose() {
      await Promise.all(tuis.map((tui) => tui.kill()));
      // A coordinator `--start` started stops its sessions with it; whatever is left is killed below.
      await runCoordinator(['stop'], sandbox);
      for (const session of await listRunningSessions(sandbox.dataDir)) {
        const info = await readConnectionFile(session.file);
        if (info.isOk()) killQuietly(info.value.pid);
      }
      await Promise.all(sessions.map((session) => session.stop('SIGKILL')));
      for (const pid of pids) killQuietly(pid);
      await sandbox.remove();
    },
  };
}

function runCoordinator(args: readonly string[], sandbox: Sandbox): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [PI_COORDINATOR_BIN, ...args], { env: sandbox.env, cwd: sandbox.cwd });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
