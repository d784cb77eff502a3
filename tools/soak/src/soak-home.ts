import { createPiSandbox, type PiSandbox } from '@pi/test-support';
import { piProcessesOf, type PiProcess } from './proc-stats';
import { until } from './waiting';

/**
 * A private temporary pi installation for one row: HOME, XDG data/config/runtime directories and two project
 * directories in one temporary folder, so the soak never touches the user's real pi files or coordinator.
 */
export interface SoakHome extends PiSandbox<'project' | 'other-project'> {
  /** The pi programs running from this home (sessions and coordinator), found by their environment. */
  processes(): PiProcess[];
  /** SIGKILL to every pi program of this home, then the folder is deleted. */
  remove(): Promise<void>;
}

const live = new Set<SoakHome>();

export async function createSoakHome(): Promise<SoakHome> {
  const sandbox = await createPiSandbox({ prefix: 'pi-soak-', folders: ['project', 'other-project'] });
  const runtimeDir = sandbox.env['XDG_RUNTIME_DIR'] ?? '';
  const processes = () => piProcessesOf(runtimeDir);
  const home: SoakHome = {
    ...sandbox,
    processes,
    async remove() {
      live.delete(home);
      const left = processes();
      for (const { pid } of left) killGroup(pid);
      await until(() => processes().length === 0, 20_000);
      await sandbox.remove();
    },
  };
  live.add(home);
  return home;
}

/** Removes every home not removed yet (an interrupted run). */
export async function removeAllHomes(): Promise<void> {
  await Promise.all([...live].map((home) => home.remove().catch(() => undefined)));
}

/** Sessions started by a coordinator lead their own process group; a session started by hand does not. */
export function killGroup(pid: number): void {
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, 'SIGKILL');
    } catch {
      // not a group leader, or gone already
    }
  }
}
