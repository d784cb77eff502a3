import { readFileSync, readdirSync } from 'node:fs';
import { isRunning } from '@pi/connection-files';

/** A process's resident memory (`VmRSS` of /proc/<pid>/status) in bytes; undefined once it is gone. */
export function rssBytes(pid: number): number | undefined {
  const status = readOrEmpty(`/proc/${pid}/status`);
  const kilobytes = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  return kilobytes === undefined ? undefined : Number(kilobytes) * 1024;
}

/** How many file descriptors a process holds open (entries of /proc/<pid>/fd); undefined once it is gone. */
export function openFds(pid: number): number | undefined {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return undefined;
  }
}

/** A pi program of one soak home, found through /proc by its environment (the home's XDG_RUNTIME_DIR). */
export interface PiProcess {
  readonly pid: number;
  readonly program: 'pi-session' | 'pi-coordinator';
  /** A session's `--session` argument (a session started by hand without one has none). */
  readonly sessionId: string | undefined;
}

/**
 * The live pi-session and `pi-coordinator run` processes whose environment names `runtimeDir`: every process a soak
 * home started, directly or through its coordinator, and nothing of the user's. Zombies do not count.
 */
export function piProcessesOf(runtimeDir: string): PiProcess[] {
  const marker = `XDG_RUNTIME_DIR=${runtimeDir}`;
  const found: PiProcess[] = [];
  for (const name of safeReaddir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    const argv = readOrEmpty(`/proc/${pid}/cmdline`).split('\0');
    const program = argv.some((arg) => runs(arg, 'pi-session'))
      ? 'pi-session'
      : argv.some((arg) => runs(arg, 'pi-coordinator')) && argv.includes('run')
        ? 'pi-coordinator'
        : undefined;
    if (program === undefined || pid === process.pid) continue;
    if (!readOrEmpty(`/proc/${pid}/environ`).split('\0').includes(marker) || !isRunning(pid)) continue;
    const flag = argv.indexOf('--session');
    found.push({ pid, program, sessionId: flag === -1 ? undefined : argv[flag + 1] });
  }
  return found;
}

/** The program's bin in the workspace (`apps/…/bin/<name>.mjs`), or as installed (`node_modules/.bin/<name>`). */
function runs(arg: string, name: string): boolean {
  return arg.endsWith(`/${name}.mjs`) || arg.endsWith(`/${name}`);
}

function readOrEmpty(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

function safeReaddir(path: string): string[] {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
}
